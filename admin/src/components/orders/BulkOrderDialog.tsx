import { useEffect, useMemo, useState } from 'react';
import { useNotification } from '@refinedev/core';
import { App, Button, Card, Col, Empty, Modal, Result, Row, Space, Statistic, Steps, Tag, Tooltip, Typography } from 'antd';
import { HeartOutlined, MedicineBoxOutlined, PlusOutlined } from '@ant-design/icons';
import { MedicationCardView, PreviewCalendar, VitalCardView } from './BulkOrderCards';
import { todayIn } from '../../components/order-ui';
import { TIME_UNITS } from '@vigia/contract/rules/activities';
import {
  isValidCard,
  loadText,
  medicationLoad,
  newMedicationCard,
  newVitalCard,
  previewOf,
  toBulkItem,
  type BulkCard,
  type MedicationCard,
  type VitalCard,
} from './bulk-orders';
import type { Schemas } from '../../contract';
import { useApiMutation } from '../../providers/calls';
import { serverError } from '../../providers/notices';
type Patient = Schemas['Patient'];
import './orders.css';
import { countOf, isOne } from '@vigia/contract/rules/plural';
import { SectionTitle } from '../SectionTitle';

const COUNTDOWN_S = 3;

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
  const { mutate, mutation } = useApiMutation();
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

  const [modal, modalHolder] = Modal.useModal();
  const create = () => {
    const valid = visible.filter(isValidCard);
    if (!valid.length) {
      notify?.({ type: 'error', message: 'No hay órdenes válidas para crear' });
      return;
    }
    const text = (res?: Schemas['BulkOrdersResult']) =>
      `${isOne(res?.total_orders ?? 0) ? 'Se creó' : 'Se crearon'} ${countOf(res?.total_orders ?? 0, 'orden', 'órdenes')} con ${countOf(res?.total_activities ?? 0, 'actividad', 'actividades')} exitosamente`;
    mutate(
      {
        method: 'post',
        path: '/patients/{id}/orders/bulk',
        params: { id: patient.id },
        values: { orders: valid.map(toBulkItem) as Schemas['BulkOrderItem'][] },
        successNotification: (res) => ({ type: 'success', message: text(res?.data) }),
        errorNotification: serverError('Error al crear las órdenes'),
      },
      { onSuccess: ({ data }) => setDone({ text: text(data), left: COUNTDOWN_S }) },
    );
  };
  /** Many doses (P155: more than 8 a day or 100 in all) are confirmed first: 'Cada 1 Horas' for 7 days is 168. */
  const submit = () => {
    const heavy = visible
      .filter((c): c is MedicationCard => c.order_type === 1 && isValidCard(c))
      .map((c) => ({ card: c, load: medicationLoad(c, tz, now) }))
      .filter((x) => x.load?.heavy);
    if (!heavy.length) return create();
    void modal.confirm({
      title: '¿Crear órdenes con muchas dosis?',
      content: (
        <ul className="bulk-heavy-list">
          {heavy.map(({ card, load }) => (
            <li key={card.key}>
              {card.medicine_label ?? 'Medicamento'}: cada {card.frecuency} {TIME_UNITS[card.time_unit!]?.toLowerCase()} durante{' '}
              {card.during} días, {loadText(load!)}.
            </li>
          ))}
        </ul>
      ),
      okText: 'Sí, crear',
      cancelText: 'Revisar',
      onOk: create,
    });
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
                {allValid ? `Crear ${countOf(visible.length, 'orden', 'órdenes')}` : 'Completar formulario'}
              </Button>,
            ]
      }
    >
      {modalHolder}
      {done ? (
        <Result status="success" title={done.text} subTitle={`Esta ventana se cerrará en ${countOf(done.left, 'segundo', 'segundos')}.`} />
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
                  <SectionTitle>Medicamentos</SectionTitle>
                  {meds.map((c, i) => (
                    <MedicationCardView
                      key={c.key}
                      card={c}
                      index={i}
                      timeZone={tz}
                      now={now}
                      onChange={update}
                      onRemove={() => remove(c.key)}
                    />
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
                  <SectionTitle>Signos Vitales</SectionTitle>
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
