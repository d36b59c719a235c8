import { useMemo, useState, type ReactNode } from 'react';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import esLocale from '@fullcalendar/core/locales/es';
import type { DatesSetArg, EventClickArg, EventContentArg } from '@fullcalendar/core';
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  ExclamationCircleOutlined,
  PauseCircleOutlined,
  QuestionCircleOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { Button, Descriptions, Form, Modal, Space, Tag, Typography } from 'antd';
import { Select } from '../../crud/form-controls';
import { MESSAGES } from '@vigia/contract/rules/validation';
import { localParts, localToUtc } from '@vigia/contract/rules/dates';
import { ACTIVITY_STATUS_NAMES, ORDER_ELEMENT_NAMES } from '@vigia/contract/rules/activities';
import { ACTIVITY_STATUS_COLORS, hourOptions, patientDateTime, patientInstant } from '../../components/order-ui';
import type { Schemas } from '../../contract';
import { apiRead, useApiMutation, useApiRead } from '../../providers/calls';
import { serverError, logOnly } from '../../providers/notices';
import { useInvalidatePaths } from '../../providers/queries';
// The legend's colours and the events' layout come with the calendar, whichever tab opens it first.
import './orders.css';
import { DayPicker } from '../../crud/DayPicker';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';
import { agendaDays, openingTime } from './calendar-view';

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
}

const legend = Object.entries(ACTIVITY_STATUS_NAMES);

/** Each status also by its shape (issue 50: not by colour alone), beside its word. */
const STATUS_ICONS: Record<number, ReactNode> = {
  0: <ClockCircleOutlined />,
  1: <SyncOutlined />,
  2: <CheckCircleOutlined />,
  3: <CloseCircleOutlined />,
  4: <ExclamationCircleOutlined />,
  5: <PauseCircleOutlined />,
  6: <QuestionCircleOutlined />,
};

/** An activity's status as icon and word. */
const StatusMark = ({ status }: { status: number }) => (
  <span className="activity-status">
    <span aria-hidden="true">{STATUS_ICONS[status]}</span> {ACTIVITY_STATUS_NAMES[status] ?? ''}
  </span>
);

const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];
/** 'lunes 07/12' for a 'YYYY-MM-DD' day. */
const dayHeading = (date: string) => `${WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]} ${date.slice(8, 10)}/${date.slice(5, 7)}`;

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
export default function ActivityCalendar({ patientId, timeZone, canManage, orderId, active = true, initialDate }: ActivityCalendarProps) {
  const [range, setRange] = useState<{ star_date: string; end_date: string } | null>(null);
  const [selected, setSelected] = useState<Activity | null>(null);
  // A phone's month cell is 40 px wide: it opens on the day, each activity a full-width row (issue 41).
  const [phone] = useState(() => window.matchMedia(PHONE).matches);
  const [form] = Form.useForm<{ date: string; hour: string }>();
  // The view shown and its first day (a phone's week is drawn as a list of days, issue 50).
  const [shown, setShown] = useState<{ type: string; first: string } | null>(null);
  // An order's activities, or the patient's in the visible range (once the calendar has one).
  const read = orderId
    ? apiRead('/patients/{id}/orders/{orderId}/activities', { params: { id: patientId, orderId } })
    : apiRead('/patients/{id}/activities', { params: { id: patientId }, query: range ?? undefined });
  // A failed read is said above the calendar, whose days stay to move between (P212: it replaced
  // 01 §8's not-found page, which took the whole patient away).
  const { query } = useApiRead(read, {
    queryOptions: { enabled: active && (!!orderId || !!range), placeholderData: (previous) => previous },
    errorNotification: logOnly('actividades'),
  });
  const loaded = query.data?.data;
  const activities = useMemo(() => loaded ?? [], [loaded]);
  const readState = useReadState([query], activities.length === 0, 'las actividades');
  const { mutate, mutation } = useApiMutation();
  const saving = mutation.isPending;
  const refresh = useInvalidatePaths();

  // Week and day views start at the working day, or at the earliest activity shown (issue 50).
  const opening = useMemo(
    () => openingTime(activities.map((a) => localParts(new Date(a.programmed_at), timeZone).time)),
    [activities, timeZone],
  );
  const agenda = phone && shown?.type === 'dayGridWeek';
  const agendaItems = useMemo(
    () =>
      agenda && shown
        ? agendaDays(
            shown.first,
            7,
            activities.map((a) => ({ ...a, ...localParts(new Date(a.programmed_at), timeZone) })),
          )
        : [],
    [agenda, shown, activities, timeZone],
  );
  const openActivity = (a: Activity | null) => {
    setSelected(a);
    if (a) {
      const p = localParts(new Date(a.programmed_at), timeZone);
      form.setFieldsValue({ date: p.date, hour: p.time });
    }
  };

  const datesSet = (arg: DatesSetArg) => {
    setShown((v) => {
      const next = { type: arg.view.type, first: arg.start.toISOString().slice(0, 10) };
      return v && v.type === next.type && v.first === next.first ? v : next;
    });
    // The calendar runs in UTC showing the patient's wall-clock times (D5): its day bounds are patient-local days.
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const next = {
      star_date: localToUtc(day(arg.start), 0, timeZone).toISOString(),
      end_date: localToUtc(day(arg.end), 0, timeZone).toISOString(),
    };
    setRange((r) => (r && r.star_date === next.star_date && r.end_date === next.end_date ? r : next));
  };
  const open = (arg: EventClickArg) => openActivity(activities.find((x) => String(x.id) === arg.event.id) ?? null);
  /** An event: its time, its title whole (wrapped) and its status as icon and word (issue 50). */
  const eventContent = (arg: EventContentArg) => (
    <span className="activity-event">
      {arg.timeText && <span className="activity-event-time">{arg.timeText}</span>}{' '}
      <span className="fc-event-title activity-event-title">{arg.event.title}</span>{' '}
      <StatusMark status={Number(arg.event.extendedProps.status)} />
    </span>
  );
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

  return (
    <div className={agenda ? 'activity-calendar activity-calendar-agenda' : 'activity-calendar'}>
      <ReadFailedAlert status={readState} />
      <div className="order-legend" aria-label="Estados de las actividades">
        {legend.map(([k, name]) => (
          <span key={k} style={{ ['--c' as string]: ACTIVITY_STATUS_COLORS[Number(k)] }}>
            <span aria-hidden="true">{STATUS_ICONS[Number(k)]}</span> {name}
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
          // A phone's week is a list of its days (below), not seven 45 px columns that cut every title.
          right: phone ? 'dayGridMonth,dayGridWeek,dayGridDay' : 'dayGridMonth,timeGridWeek,timeGridDay',
        }}
        buttonText={{ today: 'Hoy', month: 'Mes', week: 'Semana', day: 'Día' }}
        dayHeaderFormat={{ weekday: 'short' }}
        titleFormat={{ year: 'numeric', month: 'long' }}
        views={{
          timeGridWeek: { titleFormat: weekTitle },
          dayGridWeek: { titleFormat: weekTitle },
          timeGridDay: { titleFormat: { day: '2-digit', month: '2-digit', year: 'numeric' } },
          dayGridDay: { titleFormat: { day: '2-digit', month: '2-digit', year: 'numeric' }, dayMaxEvents: false },
        }}
        eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        // Every activity lasts an hour: its start is enough, and leaves its title room to wrap.
        displayEventEnd={false}
        // Two activities of one hour sit side by side, neither drawn over the other's title.
        slotEventOverlap={false}
        defaultTimedEventDuration="01:00"
        // The calendar grows with its content (height auto): the hours before are left out, not scrolled past.
        slotMinTime={opening}
        slotDuration="01:00:00"
        allDaySlot={false}
        eventContent={eventContent}
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
          extendedProps: { status: a.status },
        }))}
      />
      {agenda && (
        <ol className="activity-agenda" aria-label="Actividades de la semana">
          {agendaItems.map((day) => (
            <li key={day.date}>
              <h3 className="activity-agenda-day">{dayHeading(day.date)}</h3>
              {day.items.length === 0 ? (
                <Typography.Text type="secondary">Sin actividades</Typography.Text>
              ) : (
                <ul>
                  {day.items.map((a) => (
                    <li key={a.id}>
                      <button
                        type="button"
                        className="activity-agenda-item"
                        style={{ ['--c' as string]: ACTIVITY_STATUS_COLORS[a.status] }}
                        onClick={() => openActivity(a)}
                      >
                        <span className="activity-event-time">{a.time}</span> <span className="activity-event-title">{eventTitle(a)}</span>{' '}
                        <StatusMark status={a.status} />
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
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
