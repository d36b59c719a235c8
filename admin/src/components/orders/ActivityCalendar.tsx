import { useState } from 'react';
import { Navigate } from 'react-router';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import esLocale from '@fullcalendar/core/locales/es';
import type { DatesSetArg, EventClickArg } from '@fullcalendar/core';
import { Button, Descriptions, Form, Modal, Space, Tag, Typography } from 'antd';
import { Select } from '../../crud/form-controls';
import { MESSAGES } from '@vigia/contract/rules/validation';
import { localParts, localToUtc } from '@vigia/contract/rules/dates';
import { ACTIVITY_STATUS_NAMES, ORDER_ELEMENT_NAMES } from '@vigia/contract/rules/activities';
import { ACTIVITY_STATUS_COLORS, hourOptions, patientDateTime, patientInstant } from '../../components/order-ui';
import type { Schemas } from '../../contract';
import { apiRead, useApiMutation, useApiRead } from '../../providers/calls';
import { serverError, serverErrorOnline, logOnly } from '../../providers/notices';
import { useInvalidatePaths } from '../../providers/queries';
// The legend's colours and the events' layout come with the calendar, whichever tab opens it first.
import './orders.css';
import { DayPicker } from '../../crud/DayPicker';

type Activity = Schemas['Activity'];

export interface ActivityCalendarProps {
  patientId: number;
  timeZone: string;
  canManage: boolean;
  /** Only this order's activities (order detail), otherwise the patient's visible range. */
  orderId?: number;
  /** Reads while true (default); becoming true again reads afresh. */
  active?: boolean;
  /** First date shown (e.g. the order's start), an ISO instant. */
  initialDate?: string | null;
  /**
   * 01 §8 (patient's calendar): a failed read shows the server's notification and the not-found
   * view. Otherwise a failure is only logged.
   */
  notFoundOnError?: boolean;
}

const legend = Object.entries(ACTIVITY_STATUS_NAMES);

const dmy = (d: { year: number; month: number; day: number }) =>
  `${String(d.day).padStart(2, '0')}/${String(d.month + 1).padStart(2, '0')}/${d.year}`;

/** The week view's title: the week's first and last day, DD/MM/YYYY (the month alone said too little). */
const weekTitle = (arg: { start: { year: number; month: number; day: number }; end?: { year: number; month: number; day: number } }) =>
  arg.end ? `${dmy(arg.start)} – ${dmy(arg.end)}` : dmy(arg.start);

/**
 * An activity's text on the calendar: what it is, the medicine or the vital sign, shown whole
 * (wrapped, orders.css); the order's full sentence is in the event's title attribute and its dialog.
 */
const eventTitle = (a: Activity) =>
  a.order_type === 1
    ? (a.medicine_name ?? 'Medicamento')
    : ((a.clinical_element != null ? ORDER_ELEMENT_NAMES[a.clinical_element] : undefined) ?? a.order_description ?? 'Signos vitales');

const PHONE = '(max-width: 575px)';

/** An instant as the patient's wall-clock time, for a calendar that runs in UTC. */
function wall(iso: string, timeZone: string): string {
  const p = localParts(new Date(iso), timeZone);
  return `${p.date}T${p.time}:00Z`;
}

/** The activities calendar (02 §2.13): month, week and day views, 1-hour events, reschedule or cancel status 0 only. */
export default function ActivityCalendar({
  patientId,
  timeZone,
  canManage,
  orderId,
  active = true,
  initialDate,
  notFoundOnError = false,
}: ActivityCalendarProps) {
  const [range, setRange] = useState<{ star_date: string; end_date: string } | null>(null);
  const [selected, setSelected] = useState<Activity | null>(null);
  // A phone's month cell is 40 px wide: it opens on the day, each activity a full-width row (issue 41).
  const [phone] = useState(() => window.matchMedia(PHONE).matches);
  const [form] = Form.useForm<{ date: string; hour: string }>();
  // An order's activities, or the patient's in the visible range (once the calendar has one).
  const read = orderId
    ? apiRead('/patients/{id}/orders/{orderId}/activities', { params: { id: patientId, orderId } })
    : apiRead('/patients/{id}/activities', { params: { id: patientId }, query: range ?? undefined });
  const { query } = useApiRead(read, {
    queryOptions: { enabled: active && (!!orderId || !!range), placeholderData: (previous) => previous },
    errorNotification: notFoundOnError ? serverErrorOnline('No fue posible cargar las actividades') : logOnly('actividades'),
  });
  const activities = query.data?.data ?? [];
  const { mutate, mutation } = useApiMutation();
  const saving = mutation.isPending;
  const refresh = useInvalidatePaths();

  const datesSet = (arg: DatesSetArg) => {
    // The calendar runs in UTC showing the patient's wall-clock times (D5): its day bounds are patient-local days.
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const next = {
      star_date: localToUtc(day(arg.start), 0, timeZone).toISOString(),
      end_date: localToUtc(day(arg.end), 0, timeZone).toISOString(),
    };
    setRange((r) => (r && r.star_date === next.star_date && r.end_date === next.end_date ? r : next));
  };
  const open = (arg: EventClickArg) => {
    const a = activities.find((x) => String(x.id) === arg.event.id) ?? null;
    setSelected(a);
    if (a) {
      const p = localParts(new Date(a.programmed_at), timeZone);
      form.setFieldsValue({ date: p.date, hour: p.time });
    }
  };
  const change = (body: Schemas['ActivityUpdate']) => {
    if (!selected) return;
    mutate(
      {
        method: 'put',
        path: '/patients/{id}/orders/{orderId}/activities/{activityId}',
        params: { id: patientId, orderId: selected.order_id, activityId: selected.id },
        values: body,
        successNotification: { type: 'success', message: body.status === 3 ? 'Actividad cancelada' : 'Actividad reprogramada' },
        errorNotification: serverError('No fue posible actualizar la actividad'),
      },
      {
        onSuccess: () => {
          setSelected(null);
          void refresh(`/patients/${patientId}/activities`, `/patients/${patientId}/orders`);
        },
      },
    );
  };
  const reschedule = async () => {
    const v = await form.validateFields().catch(() => null);
    if (v) await change({ programmed_at: patientInstant(v.date, v.hour, timeZone) });
  };
  const editable = !!selected && selected.status === 0 && canManage;
  const failure = query.error;
  if (notFoundOnError && failure && failure.statusCode !== 0) return <Navigate to="/404notfound" replace />;

  return (
    <div className="activity-calendar">
      <div className="order-legend" aria-label="Estados de las actividades">
        {legend.map(([k, name]) => (
          <span key={k} style={{ ['--c' as string]: ACTIVITY_STATUS_COLORS[Number(k)] }}>
            {name}
          </span>
        ))}
      </div>
      <FullCalendar
        plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
        locale={esLocale}
        timeZone="UTC"
        now={() => wall(new Date().toISOString(), timeZone)}
        initialView={phone ? 'dayGridDay' : 'dayGridMonth'}
        initialDate={initialDate ? wall(initialDate, timeZone) : undefined}
        headerToolbar={{
          left: 'prev,next today',
          center: 'title',
          right: phone ? 'dayGridMonth,dayGridDay' : 'dayGridMonth,timeGridWeek,timeGridDay',
        }}
        buttonText={{ today: 'Hoy', month: 'Mes', week: 'Semana', day: 'Día' }}
        dayHeaderFormat={{ weekday: 'short' }}
        titleFormat={{ year: 'numeric', month: 'long' }}
        views={{
          timeGridWeek: { titleFormat: weekTitle },
          timeGridDay: { titleFormat: { day: '2-digit', month: '2-digit', year: 'numeric' } },
          dayGridDay: { titleFormat: { day: '2-digit', month: '2-digit', year: 'numeric' }, dayMaxEvents: false },
        }}
        eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        defaultTimedEventDuration="01:00"
        height="auto"
        dayMaxEvents={3}
        moreLinkText={(n) => `+${n} más`}
        // FullCalendar's markup, made valid ARIA (issue 19): its '+n más' link is a button with
        // aria-expanded, a day cell is named by what it shows, and the arrows' icons are decoration
        // inside buttons that are named by their hints.
        moreLinkDidMount={({ el }) => el.setAttribute('role', 'button')}
        dayCellDidMount={({ el }) => el.removeAttribute('aria-labelledby')}
        viewDidMount={({ el }) =>
          el
            .closest('.fc')
            ?.querySelectorAll('.fc-toolbar .fc-icon')
            .forEach((icon) => icon.setAttribute('aria-hidden', 'true'))
        }
        datesSet={datesSet}
        eventClick={open}
        // The order's whole sentence, time and status on hover.
        eventDidMount={(info) => {
          const a = activities.find((x) => String(x.id) === info.event.id);
          if (a)
            info.el.title = `${patientDateTime(a.programmed_at, timeZone)} · ${a.order_description ?? eventTitle(a)} · ${ACTIVITY_STATUS_NAMES[a.status] ?? ''}`;
        }}
        events={activities.map((a) => ({
          id: String(a.id),
          title: eventTitle(a),
          start: wall(a.programmed_at, timeZone),
          end: wall(new Date(new Date(a.programmed_at).getTime() + 3600_000).toISOString(), timeZone),
          color: ACTIVITY_STATUS_COLORS[a.status],
        }))}
      />
      <Modal
        open={!!selected}
        title="Actividad"
        onCancel={() => setSelected(null)}
        footer={[
          <Button key="close" onClick={() => setSelected(null)}>
            Cerrar
          </Button>,
          <Button key="cancel" danger disabled={!editable || saving} onClick={() => change({ status: 3 })}>
            Cancelar actividad
          </Button>,
          <Button key="save" type="primary" disabled={!editable || saving} loading={saving} onClick={reschedule}>
            Reprogramar
          </Button>,
        ]}
      >
        {selected && (
          <>
            <Descriptions column={1} size="small">
              <Descriptions.Item label="Orden">{selected.order_description}</Descriptions.Item>
              <Descriptions.Item label="Programada para">{patientDateTime(selected.programmed_at, timeZone)}</Descriptions.Item>
              <Descriptions.Item label="Estado">
                <Tag color={ACTIVITY_STATUS_COLORS[selected.status]}>{selected.status_name}</Tag>
              </Descriptions.Item>
            </Descriptions>
            {selected.status !== 0 ? (
              <Typography.Paragraph type="secondary">
                Solo las actividades Programadas se pueden reprogramar o cancelar.
              </Typography.Paragraph>
            ) : !canManage ? (
              <Typography.Paragraph type="secondary">
                Su rol o el estado del paciente no permiten gestionar actividades.
              </Typography.Paragraph>
            ) : null}
            <Form form={form} layout="vertical" disabled={!editable}>
              <Space wrap>
                <Form.Item name="date" label="Fecha" rules={[{ required: true, message: MESSAGES.required }]}>
                  <DayPicker />
                </Form.Item>
                <Form.Item name="hour" label="Hora" rules={[{ required: true, message: MESSAGES.required }]}>
                  <Select options={hourOptions} style={{ width: 120 }} showSearch />
                </Form.Item>
              </Space>
            </Form>
          </>
        )}
      </Modal>
    </div>
  );
}
