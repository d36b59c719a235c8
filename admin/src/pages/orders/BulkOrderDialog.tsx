import { useEffect, useMemo, useState } from 'react';
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Empty,
  Input,
  InputNumber,
  Modal,
  Result,
  Row,
  Select,
  Space,
  Statistic,
  Steps,
  Switch,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { CloseOutlined, HeartOutlined, MedicineBoxOutlined, PlusOutlined } from '@ant-design/icons';
import { MedicineSelect } from './MedicineSelect';
import {
  amountOptions,
  elementOptions,
  frequencyTypeOptions,
  hourOptions,
  timeUnitOptions,
  todayIn,
  unitOptions,
  weekdayOptions,
  SHORT_DAYS,
} from './order-ui';
import {
  QUICK_DAYS,
  chipsByDay,
  isValidCard,
  newMedicationCard,
  newVitalCard,
  previewOf,
  previewWeeks,
  toBulkItem,
  withFrequencyType,
  type BulkCard,
  type MedicationCard,
  type VitalCard,
} from './bulk-orders';
import { useCustomMutation, useNotification } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { apiUrl, errorNotice } from '../patients/hooks/data';
import type { Patient } from '../patients/types';
import './orders.css';

const COUNTDOWN_S = 3;

function Field({ label, children, invalid }: { label: string; children: React.ReactNode; invalid?: boolean }) {
  return (
    <label className="bulk-field">
      <span>{label}</span>
      {children}
      {invalid && (
        <Typography.Text type="danger" className="bulk-field-error">
          ¡El campo es requerido!
        </Typography.Text>
      )}
    </label>
  );
}

function MedicationCardView({
  card,
  onChange,
  onRemove,
  index,
}: {
  card: MedicationCard;
  onChange: (c: MedicationCard) => void;
  onRemove: () => void;
  index: number;
}) {
  const set = (patch: Partial<MedicationCard>) => onChange({ ...card, ...patch });
  return (
    <Card
      size="small"
      className="bulk-card"
      title={
        <Space>
          <MedicineBoxOutlined />
          Medicamento {index + 1}
          {!isValidCard(card) && <Tag color="orange">Incompleta</Tag>}
        </Space>
      }
      extra={<Button type="text" icon={<CloseOutlined />} aria-label={`Quitar medicamento ${index + 1}`} onClick={onRemove} />}
    >
      <Row gutter={8}>
        <Col span={24}>
          <Field label="Medicamento" invalid={!card.medicine_id}>
            <MedicineSelect
              value={card.medicine_id}
              onChange={(medicine_id, medicine) => set({ medicine_id, medicine_label: medicine?.name })}
            />
          </Field>
        </Col>
        <Col xs={12} md={6}>
          <Field label="Cantidad">
            <Select value={card.amount} options={amountOptions} onChange={(amount) => set({ amount })} />
          </Field>
        </Col>
        <Col xs={12} md={6}>
          <Field label="Unidad">
            <Select value={card.medication_unit} options={unitOptions} onChange={(medication_unit) => set({ medication_unit })} />
          </Field>
        </Col>
        <Col xs={12} md={6}>
          <Field label="Cada" invalid={!card.frecuency}>
            <InputNumber
              min={1}
              max={720}
              value={card.frecuency}
              onChange={(v) => set({ frecuency: v ?? undefined })}
              style={{ width: '100%' }}
            />
          </Field>
        </Col>
        <Col xs={12} md={6}>
          <Field label="Unidad de tiempo">
            <Select value={card.time_unit} options={timeUnitOptions} onChange={(time_unit) => set({ time_unit })} />
          </Field>
        </Col>
        <Col xs={12} md={8}>
          <Field label="Duración (días)" invalid={!card.during}>
            <InputNumber
              min={1}
              max={365}
              value={card.during}
              onChange={(v) => set({ during: v ?? undefined })}
              style={{ width: '100%' }}
            />
          </Field>
        </Col>
        <Col xs={12} md={8}>
          <Field label="Fecha de inicio" invalid={!card.start}>
            <Input type="date" value={card.start} onChange={(e) => set({ start: e.target.value })} />
          </Field>
        </Col>
        <Col xs={12} md={8}>
          <Field label="Notificar">
            <Switch checked={card.notify} onChange={(notify) => set({ notify })} />
          </Field>
        </Col>
      </Row>
    </Card>
  );
}

function VitalCardView({
  card,
  onChange,
  onRemove,
  index,
}: {
  card: VitalCard;
  onChange: (c: VitalCard) => void;
  onRemove: () => void;
  index: number;
}) {
  const set = (patch: Partial<VitalCard>) => onChange({ ...card, ...patch });
  const weekly = card.frequency_type === 1;
  return (
    <Card
      size="small"
      className="bulk-card"
      title={
        <Space>
          <HeartOutlined />
          Signo vital {index + 1}
          {!isValidCard(card) && <Tag color="orange">Incompleta</Tag>}
        </Space>
      }
      extra={<Button type="text" icon={<CloseOutlined />} aria-label={`Quitar signo vital ${index + 1}`} onClick={onRemove} />}
    >
      <Row gutter={8}>
        <Col xs={24} md={12}>
          <Field label="Signo vital" invalid={card.clinical_element == null}>
            <Select
              value={card.clinical_element}
              options={elementOptions}
              placeholder="Seleccione"
              onChange={(clinical_element) => set({ clinical_element })}
              aria-label="Signo vital"
            />
          </Field>
        </Col>
        <Col xs={12} md={6}>
          <Field label="Frecuencia">
            <Select value={card.frequency_type} options={frequencyTypeOptions} onChange={(v) => onChange(withFrequencyType(card, v))} />
          </Field>
        </Col>
        <Col xs={12} md={6}>
          <Field label={weekly ? 'Duración (semanas)' : 'Duración (días)'} invalid={!card.during}>
            <InputNumber
              min={1}
              max={365}
              value={card.during}
              onChange={(v) => set({ during: v ?? undefined })}
              style={{ width: '100%' }}
            />
          </Field>
        </Col>
        {weekly && (
          <Col span={24}>
            <Field label="Días de la semana" invalid={!card.days.length}>
              <Space wrap>
                <Checkbox.Group
                  value={card.days}
                  options={weekdayOptions.map((o) => ({ ...o, label: SHORT_DAYS[o.value] }))}
                  onChange={(days) => set({ days: days as number[] })}
                />
                {QUICK_DAYS.map((q) => (
                  <Button key={q.label} size="small" onClick={() => set({ days: q.days })}>
                    {q.label}
                  </Button>
                ))}
              </Space>
            </Field>
          </Col>
        )}
        <Col xs={24} md={12}>
          <Field label="Horas" invalid={!card.hours.length}>
            <Select mode="multiple" value={card.hours} options={hourOptions} onChange={(hours) => set({ hours })} />
          </Field>
        </Col>
        <Col xs={12} md={8}>
          <Field label="Fecha de inicio" invalid={!card.start}>
            <Input type="date" value={card.start} onChange={(e) => set({ start: e.target.value })} />
          </Field>
        </Col>
        <Col xs={12} md={4}>
          <Field label="Notificar">
            <Switch checked={card.notify} onChange={(notify) => set({ notify })} />
          </Field>
        </Col>
      </Row>
    </Card>
  );
}

function PreviewCalendar({
  chips,
  timeZone,
  firstDay,
  duration,
}: {
  chips: ReturnType<typeof previewOf>['chips'];
  timeZone: string;
  firstDay: string;
  duration: number;
}) {
  const { byDay, busiest } = useMemo(() => chipsByDay(chips, timeZone), [chips, timeZone]);
  const weeks = previewWeeks(firstDay, duration);
  return (
    <div>
      <div className="bulk-calendar" role="grid" aria-label="Vista previa del calendario">
        {SHORT_DAYS.map((d) => (
          <div key={d} className="bulk-calendar-head" role="columnheader">
            {d}
          </div>
        ))}
        {weeks.flat().map((day) => {
          const list = byDay.get(day) ?? [];
          return (
            <div key={day} className="bulk-calendar-day" role="gridcell" data-day={day}>
              <div className="bulk-calendar-date">
                {Number(day.slice(8))}/{Number(day.slice(5, 7))}
              </div>
              {list.slice(0, 3).map((c, i) => (
                <div key={i} className={`bulk-chip bulk-chip-${c.type}`} title={`${c.time} ${c.label}`}>
                  {c.time} {c.label}
                </div>
              ))}
              {list.length > 3 && <div className="bulk-more">+{list.length - 3} más</div>}
            </div>
          );
        })}
      </div>
      {busiest.length > 0 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          Días con más actividades: {busiest.map((b) => `${b.day.slice(8)}/${b.day.slice(5, 7)} (${b.count})`).join(', ')}
        </Typography.Paragraph>
      )}
    </div>
  );
}

/** 'Crear múltiples órdenes' (02 §2.4): type cards, order cards, the shared generator's summary and preview. */
export function BulkOrderDialog({
  patient,
  open,
  onClose,
  onCreated,
}: {
  patient: Patient;
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { message } = App.useApp();
  const { open: notify } = useNotification();
  const { mutate, mutation } = useCustomMutation<Schemas['BulkOrdersResult']>();
  const saving = mutation.isPending;
  const tz = patient.time_zone;
  const [types, setTypes] = useState({ med: false, vital: false });
  const [cards, setCards] = useState<BulkCard[]>([]);
  const [done, setDone] = useState<{ text: string; left: number } | null>(null);
  // 02 §6: if permissions did not load, treated as false.
  const canCreate = patient.permissions?.create_order === true;
  const now = useMemo(() => new Date(), [cards]); // eslint-disable-line react-hooks/exhaustive-deps -- the preview's "now" moves on when the cards change
  const visible = cards.filter((c) => (c.order_type === 1 ? types.med : types.vital));
  const { summary, chips } = useMemo(() => previewOf(visible, tz, now), [visible, tz, now]);
  const allValid = visible.length > 0 && visible.every(isValidCard);
  const step = !types.med && !types.vital ? 0 : allValid ? 2 : 1;
  const firstDay = visible.map((c) => c.start ?? todayIn(tz)).sort()[0] ?? todayIn(tz);
  const today = todayIn(tz);

  const reset = () => {
    setTypes({ med: false, vital: false });
    setCards([]);
    setDone(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  useEffect(() => {
    if (!done) return;
    if (done.left <= 0) {
      close();
      onCreated();
      return;
    }
    const timer = setTimeout(() => setDone({ ...done, left: done.left - 1 }), 1000);
    return () => clearTimeout(timer);
  }, [done]); // eslint-disable-line react-hooks/exhaustive-deps -- the countdown ticks on `done` only; close and onCreated are the latest props

  const toggleType = (key: 'med' | 'vital') => {
    const next = { ...types, [key]: !types[key] };
    setTypes(next);
    if (next[key] && !cards.some((c) => (key === 'med' ? c.order_type === 1 : c.order_type === 0))) {
      setCards((cs) => [...cs, key === 'med' ? newMedicationCard(today) : newVitalCard(today)]);
    }
  };
  const update = (card: BulkCard) => setCards((cs) => cs.map((c) => (c.key === card.key ? card : c)));
  const remove = (key: number) => setCards((cs) => cs.filter((c) => c.key !== key));

  const submit = () => {
    const valid = visible.filter(isValidCard);
    if (!valid.length) {
      notify?.({ type: 'error', message: 'No hay órdenes válidas para crear' });
      return;
    }
    const text = (res?: Schemas['BulkOrdersResult']) =>
      `Se crearon ${res?.total_orders} órdenes con ${res?.total_activities} actividades exitosamente`;
    mutate(
      {
        url: apiUrl(`/patients/${patient.id}/orders/bulk`),
        method: 'post',
        values: { orders: valid.map(toBulkItem) as Schemas['BulkOrderItem'][] },
        successNotification: (res) => ({ type: 'success', message: text(res?.data) }),
        errorNotification: errorNotice('Error al crear las órdenes'),
      },
      { onSuccess: ({ data }) => setDone({ text: text(data), left: COUNTDOWN_S }) },
    );
  };

  const meds = visible.filter((c): c is MedicationCard => c.order_type === 1);
  const vitals = visible.filter((c): c is VitalCard => c.order_type === 0);
  return (
    <Modal
      open={open}
      onCancel={close}
      width={1100}
      title="Crear múltiples órdenes"
      destroyOnHidden
      footer={
        done
          ? null
          : [
              <Button
                key="reset"
                onClick={() => {
                  reset();
                  message.success('Formulario reiniciado correctamente');
                }}
              >
                Reiniciar
              </Button>,
              <Button key="cancel" onClick={close}>
                Cancelar
              </Button>,
              <Button key="create" type="primary" disabled={!allValid || !canCreate || saving} loading={saving} onClick={submit}>
                {allValid ? `Crear ${visible.length} órdenes` : 'Completar formulario'}
              </Button>,
            ]
      }
    >
      {done ? (
        <Result status="success" title={done.text} subTitle={`Esta ventana se cerrará en ${done.left} segundos.`} />
      ) : (
        <>
          <Steps
            size="small"
            current={step}
            items={[{ title: 'Seleccionar tipos' }, { title: 'Configurar órdenes' }, { title: 'Revisar y crear' }]}
            style={{ marginBottom: 16 }}
          />
          {!canCreate && (
            <Typography.Paragraph type="danger">Su rol o el estado del paciente no permiten crear órdenes.</Typography.Paragraph>
          )}
          <Row gutter={12} style={{ marginBottom: 12 }}>
            {(
              [
                ['med', 'Medicamentos', <MedicineBoxOutlined key="m" />],
                ['vital', 'Signos Vitales', <HeartOutlined key="h" />],
              ] as const
            ).map(([key, label, icon]) => (
              <Col span={12} key={key}>
                <Card
                  hoverable
                  size="small"
                  onClick={() => toggleType(key)}
                  className={types[key] ? 'bulk-type bulk-type-on' : 'bulk-type'}
                  role="checkbox"
                  aria-checked={types[key]}
                  aria-label={label}
                >
                  <Space>
                    {icon}
                    <Typography.Text strong>{label}</Typography.Text>
                    {types[key] && <Tag color="blue">Seleccionado</Tag>}
                  </Space>
                </Card>
              </Col>
            ))}
          </Row>
          <Row gutter={16}>
            <Col xs={24} lg={13}>
              {!types.med && !types.vital && <Empty description="Seleccione Medicamentos, Signos Vitales o ambos para empezar." />}
              {types.med && (
                <section aria-label="Órdenes de medicamentos">
                  <Typography.Title level={5}>Medicamentos</Typography.Title>
                  {meds.map((c, i) => (
                    <MedicationCardView key={c.key} card={c} index={i} onChange={update} onRemove={() => remove(c.key)} />
                  ))}
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => setCards((cs) => [...cs, newMedicationCard(today)])}
                    style={{ marginBottom: 12 }}
                  >
                    Agregar
                  </Button>
                </section>
              )}
              {types.vital && (
                <section aria-label="Órdenes de signos vitales">
                  <Typography.Title level={5}>Signos Vitales</Typography.Title>
                  {vitals.map((c, i) => (
                    <VitalCardView key={c.key} card={c} index={i} onChange={update} onRemove={() => remove(c.key)} />
                  ))}
                  <Button icon={<PlusOutlined />} onClick={() => setCards((cs) => [...cs, newVitalCard(today)])}>
                    Agregar
                  </Button>
                </section>
              )}
            </Col>
            <Col xs={24} lg={11}>
              <Card size="small" title="Resumen" className="bulk-summary">
                <Row gutter={8}>
                  <Col span={12}>
                    <Statistic title="Órdenes" value={summary.orders} />
                  </Col>
                  <Col span={12}>
                    <Statistic title="Actividades" value={summary.activities} />
                  </Col>
                  <Col span={12}>
                    <Statistic title="Duración estimada" value={summary.duration} suffix="días" />
                  </Col>
                  <Col span={12}>
                    <Tooltip title="Actividades por día durante la duración estimada">
                      <Statistic title="Promedio por día" value={summary.averagePerDay} />
                    </Tooltip>
                  </Col>
                </Row>
              </Card>
              <PreviewCalendar chips={chips} timeZone={tz} firstDay={firstDay < today ? today : firstDay} duration={summary.duration} />
            </Col>
          </Row>
        </>
      )}
    </Modal>
  );
}
