/** The bulk-order dialog's pieces (02 §2.4): one card per order being written, and the preview calendar. */
import { useMemo } from 'react';
import { Alert, Button, Card, Checkbox, Col, InputNumber, Row, Space, Switch, Tag, Typography } from 'antd';
import { Select } from '../../crud/form-controls';
import { CloseOutlined, HeartOutlined, MedicineBoxOutlined } from '@ant-design/icons';
import { MedicineSelect } from './MedicineSelect';
import {
  amountOptions,
  elementOptions,
  frequencyTypeOptions,
  hourOptions,
  timeUnitOptions,
  unitOptions,
  weekdayOptions,
  SHORT_DAYS,
} from '../../components/order-ui';
import {
  QUICK_DAYS,
  chipsByDay,
  isValidCard,
  loadText,
  medicationLoad,
  previewOf,
  previewWeeks,
  withFrequencyType,
  type MedicationCard,
  type VitalCard,
} from './bulk-orders';
import './orders.css';
import { DayPicker } from '../../crud/DayPicker';

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

export function MedicationCardView({
  card,
  onChange,
  onRemove,
  index,
  timeZone,
  now,
}: {
  card: MedicationCard;
  onChange: (c: MedicationCard) => void;
  onRemove: () => void;
  index: number;
  /** The patient's zone and the dialog's "now": the same the summary counts with. */
  timeZone: string;
  now: Date;
}) {
  const set = (patch: Partial<MedicationCard>) => onChange({ ...card, ...patch });
  const load = medicationLoad(card, timeZone, now);
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
            <DayPicker value={card.start} onChange={(start) => set({ start })} />
          </Field>
        </Col>
        <Col xs={12} md={8}>
          <Field label="Notificar">
            <Switch checked={card.notify} onChange={(notify) => set({ notify })} />
          </Field>
        </Col>
      </Row>
      {load && (
        <Alert
          className="bulk-load"
          type={load.heavy ? 'warning' : 'info'}
          showIcon
          message={loadText(load)}
          description={load.heavy ? 'Es una cantidad alta de dosis: se pedirá confirmación antes de crear la orden.' : undefined}
        />
      )}
    </Card>
  );
}

export function VitalCardView({
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
            <DayPicker value={card.start} onChange={(start) => set({ start })} />
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

export function PreviewCalendar({
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
      {/* A grid's cells sit in rows (axe aria-required-children / aria-required-parent): a row per week. */}
      <div className="bulk-calendar" role="grid" aria-label="Vista previa del calendario">
        <div className="bulk-calendar-row" role="row">
          {SHORT_DAYS.map((d) => (
            <div key={d} className="bulk-calendar-head" role="columnheader">
              {d}
            </div>
          ))}
        </div>
        {weeks.map((week) => (
          <div key={week[0]} className="bulk-calendar-row" role="row">
            {week.map((day) => {
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
        ))}
      </div>
      {busiest.length > 0 && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
          Días con más actividades: {busiest.map((b) => `${b.day.slice(8)}/${b.day.slice(5, 7)} (${b.count})`).join(', ')}
        </Typography.Paragraph>
      )}
    </div>
  );
}
