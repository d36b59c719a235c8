import { lazy, Suspense, useState } from 'react';
import { useOne } from '@refinedev/core';
import { Navigate, useNavigate, useParams } from 'react-router';
import { Button, Card, Col, Descriptions, Form, Popconfirm, Row, Skeleton, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, CalendarOutlined, StopOutlined } from '@ant-design/icons';
import { usePageTitle } from '../../layout/usePageTitle';
import type { Schemas } from '../../contract';
import type { VigiaHttpError } from '../../providers/errors';
import { useApiMutation } from '../../providers/calls';
import { serverErrorOnline, logOnly } from '../../providers/notices';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';
import { useInvalidatePaths } from '../../providers/queries';
import type { Patient } from '../patients/types';
import { permissionState } from '../../components/record-access';
import { OrderFields, orderBody } from '../../components/orders/OrderFields';
import { OrderStatusTag } from '../../components/orders/OrderStatusTag';
import { patientDateTime } from '../../components/order-ui';
import { ScheduleDialog } from './ScheduleDialog';
import '../../components/orders/orders.css';
import { countOf } from '@vigia/contract/rules/plural';

type Order = Schemas['Order'];
type OrderUpdate = Schemas['OrderUpdate'];

const ActivityCalendar = lazy(() => import('../../components/orders/ActivityCalendar'));

const Missing = () => <Tag color="red">Dato Incompleto</Tag>;
const orElse = (v: React.ReactNode) => (v === null || v === undefined || v === '' ? <Missing /> : v);

/** Order detail, /patients/:patient_id/orders/:order_id (02 §2.5). */
export default function OrderDetailPage() {
  const { patient_id, order_id } = useParams();
  const navigate = useNavigate();
  const [scheduling, setScheduling] = useState(false);
  const [form] = Form.useForm();
  const patientId = Number(patient_id);
  const ordersPath = `/patients/${patientId}/orders`;
  const orderRead = useOne<Order, VigiaHttpError>({
    resource: ordersPath.slice(1),
    id: Number(order_id),
    errorNotification: serverErrorOnline('No fue posible cargar la orden'),
  });
  const patientRead = useOne<Patient, VigiaHttpError>({ resource: 'patients', id: patientId, errorNotification: logOnly('paciente') });
  const order = orderRead.result;
  const patient = patientRead.result;
  const failure = orderRead.query.error ?? patientRead.query.error;
  const missing = !!failure?.statusCode && failure.statusCode >= 400 && failure.statusCode < 500;
  const { mutate, mutation } = useApiMutation();
  const saving = mutation.isPending;
  const refresh = useInvalidatePaths();
  usePageTitle(order ? `Orden #${order.id}` : 'Detalle de la orden');
  // A failure other than a missing record, or no network: said in place with 'Reintentar' (P212).
  const readState = useReadState([orderRead.query, patientRead.query], false, 'la orden');

  if (missing) return <Navigate to="/404notfound" replace />;
  if (!order || !patient)
    return readState.phase === 'failed' ? (
      <section className="vigia-page">
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(`/patients/${patientId}?tab=orders`)} style={{ marginBottom: 12 }}>
          Volver
        </Button>
        <ReadFailedAlert status={readState} />
      </section>
    ) : (
      <Skeleton active />
    );
  const perms = patient.permissions;
  const manage = permissionState(patient, 'manage_activities');
  const edit = permissionState(patient, 'create_order');
  const tz = order.time_zone_patient;
  const update = (body: OrderUpdate) =>
    mutate(
      {
        method: 'put',
        path: '/patients/{id}/orders/{orderId}',
        params: { id: patientId, orderId: order.id },
        values: body,
        // 02 §8: update failures are silent.
        errorNotification: logOnly('orden'),
      },
      { onSuccess: () => void refresh(ordersPath) },
    );
  const saveEdit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const { order_type: _t, ...body } = orderBody(order.order_type, v);
    update(body as OrderUpdate);
  };
  const duration = order.permanent ? (
    <Tag color="blue">Permanente</Tag>
  ) : (
    `${order.during} ${order.order_type === 0 && order.frequency_type === 1 ? 'semanas' : 'días'} (calendario)`
  );

  return (
    <section className="vigia-page">
      <ReadFailedAlert status={readState} />
      <Space style={{ marginBottom: 12 }} wrap>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(`/patients/${patient.id}?tab=orders`)}>
          Volver
        </Button>
        <Typography.Title level={1} className="vigia-page-title">
          {patient.full_name}
        </Typography.Title>
        <Typography.Text type="secondary">
          {patient.id_type_name} {patient.nid} · {countOf(patient.age, 'año', 'años')} · {patient.status_name}
        </Typography.Text>
      </Space>
      <Row gutter={[16, 16]}>
        <Col span={24}>
          <Card
            title={
              <Space>
                Descripción de la orden <OrderStatusTag order={order} />
              </Space>
            }
          >
            <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
              <Descriptions.Item label="Tipo de orden">{order.order_type_name}</Descriptions.Item>
              {order.order_type === 0 ? (
                <Descriptions.Item label="Tipo de Toma">{orElse(order.clinical_element_name)}</Descriptions.Item>
              ) : (
                <Descriptions.Item label="Medicamento">{orElse(order.medicine_name)}</Descriptions.Item>
              )}
              <Descriptions.Item label="Duración">{duration}</Descriptions.Item>
              <Descriptions.Item label="Fecha de inicio">{orElse(patientDateTime(order.start_at, tz))}</Descriptions.Item>
              <Descriptions.Item label="Responsable">{orElse(order.user.name)}</Descriptions.Item>
              <Descriptions.Item label="Notificaciones">{order.notify ? 'Activas' : 'Pausadas'}</Descriptions.Item>
              <Descriptions.Item label="Descripción" span={3}>
                {orElse(order.description)}
              </Descriptions.Item>
            </Descriptions>
            {order.status !== 3 && (
              <div style={{ marginTop: 12 }}>
                <Space wrap>
                  <Tooltip title={manage.reason}>
                    <Button
                      icon={<CalendarOutlined />}
                      disabled={!order.programmable || !perms.manage_activities}
                      onClick={() => setScheduling(true)}
                    >
                      Programar Actividades
                    </Button>
                  </Tooltip>
                  <Popconfirm
                    title="¿Cancelar la orden y sus actividades pendientes?"
                    okText="Sí, cancelar"
                    cancelText="No"
                    disabled={!perms.manage_activities || order.status >= 3}
                    onConfirm={() => update({ status: 3 })}
                  >
                    <Tooltip title={manage.reason}>
                      <Button danger icon={<StopOutlined />} disabled={!perms.manage_activities || order.status >= 3}>
                        Cancelar Orden
                      </Button>
                    </Tooltip>
                  </Popconfirm>
                </Space>
              </div>
            )}
            {(order.status === 1 || order.status === 2) && (
              <Space style={{ marginTop: 12 }}>
                <Tooltip title={manage.reason}>
                  <Switch
                    checked={!order.notify}
                    loading={saving}
                    disabled={!perms.manage_activities}
                    onChange={(paused) => update({ notify: !paused })}
                    aria-label="Pausar Notificaciones"
                  />
                </Tooltip>
                {order.notify ? 'Pausar Notificaciones' : 'Activar Notificaciones'}
              </Space>
            )}
          </Card>
        </Col>
        {order.status === 0 && (
          <Col span={24}>
            <Card title="Editar orden">
              <Form form={form} layout="vertical" initialValues={order} disabled={!perms.create_order}>
                <OrderFields orderType={order.order_type} />
                <Tooltip title={edit.reason}>
                  <Button type="primary" loading={saving} disabled={!edit.allowed} onClick={saveEdit}>
                    Guardar
                  </Button>
                </Tooltip>
              </Form>
            </Card>
          </Col>
        )}
        {(order.activities_count ?? 0) > 0 && (
          <Col span={24}>
            <Card title="Calendario de Actividades">
              <Suspense fallback={<Skeleton active />}>
                <ActivityCalendar
                  patientId={patient.id}
                  orderId={order.id}
                  timeZone={tz}
                  canManage={perms.manage_activities && order.status < 3}
                  initialDate={order.start_at}
                />
              </Suspense>
            </Card>
          </Col>
        )}
      </Row>
      <ScheduleDialog
        order={order}
        open={scheduling}
        onClose={() => setScheduling(false)}
        onDone={() => {
          setScheduling(false);
          void refresh(`/patients/${patientId}`);
        }}
      />
    </section>
  );
}
