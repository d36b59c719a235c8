import { lazy, Suspense, useEffect, useState } from 'react';
import { displayName } from '@vigia/contract/rules/names';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert, Button, Card, Col, Descriptions, Empty, Input, List, Modal, Row, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { RadioGroup } from '../../crud/form-controls';
import { ArrowLeftOutlined, HeartOutlined, RobotOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { useInvalidate } from '@refinedev/core';
import { ENTRY_MIN_LENGTH, formatElapsed, validateEntry } from '@vigia/contract/rules/alarms';
import { usePageTitle } from '../../layout/usePageTitle';
import type { Schemas } from '../../contract';
import { useApiMutation, useApiQuery } from '../../providers/calls';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';
import { roleAccess } from '../../providers/access';
import { serverError, success } from '../../providers/notices';
import { PRIORITY_COLORS, PRIORITY_TAG } from '../../components/alerts.data';
import { formatWhen } from '@vigia/contract/rules/dates';
import '../../components/alerts/alerts.css';
import { ItemMeta } from '../../ui/ItemMeta';
import { useIdempotencyKey } from '../../hooks/useIdempotencyKey';

const MeasurementsPanel = lazy(() => import('./MeasurementsPanel'));
const INCOMPLETE = 'Dato Incompleto';

type AlertDetail = Schemas['AlertDetail'];

/** 'Abierta:' ticks every minute; elapsed days, hours and minutes (02 §2.8). */
function useNow(ms = 60_000) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = window.setInterval(() => setNow(new Date()), ms);
    return () => window.clearInterval(t);
  }, [ms]);
  return now;
}

function ContactCard({ alert }: { alert: AlertDetail }) {
  const c = alert.contact;
  const v = (x: string | null) => x || <Typography.Text type="warning">{INCOMPLETE}</Typography.Text>;
  return (
    <Card size="small" title="Contacto">
      <Descriptions column={1} size="small">
        <Descriptions.Item label="Dirección">{v(c.address)}</Descriptions.Item>
        <Descriptions.Item label="Barrio">{v(c.neighborhood)}</Descriptions.Item>
        <Descriptions.Item label="Ciudad">{v(c.city_name)}</Descriptions.Item>
        <Descriptions.Item label="Teléfono">{c.cellphone ? `${c.prefix ?? ''} ${c.cellphone}` : v(null)}</Descriptions.Item>
        <Descriptions.Item label="Correo electrónico">{v(c.email)}</Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** 'Gestionar alerta': entries oldest first, 'Evolución', 'Cerrar Alerta' (02 §2.8). */
function ManagePanel({ alert, onClosed }: { alert: AlertDetail; onClosed: () => void }) {
  const [text, setText] = useState('');
  const [closing, setClosing] = useState(false);
  const [closeType, setCloseType] = useState<'true_alert' | 'false_alert'>('true_alert');
  const { mutate, mutation } = useApiMutation();
  const invalidate = useInvalidate();
  const busy = mutation.isPending;
  const closed = alert.status !== 1;
  const valid = validateEntry(text) === null;
  // The server's rule for alert handling (alerts.service assertMayHandle): clinical.write.
  const access = roleAccess('clinical.write');
  const params = { id: alert.patient.id, alertId: alert.id };
  const reload = () => invalidate({ invalidates: ['all'] });
  // One key per submit, kept for its retries: an entry or a close whose answer was lost is stored once (issue 50).
  const entryKey = useIdempotencyKey();
  const closeKey = useIdempotencyKey();

  const addEntry = () => {
    const values = { description: text.trim() };
    mutate(
      {
        method: 'post',
        path: '/patients/{id}/alerts/{alertId}/alert_entries',
        params,
        values,
        idempotencyKey: entryKey.keyFor({ params, values }),
        errorNotification: serverError(),
      },
      {
        onSuccess: () => {
          entryKey.succeeded();
          setText('');
          void reload();
        },
      },
    );
  };
  const close = () => {
    const values = { status: 2 as const, close_type: closeType, description: text.trim() };
    mutate(
      {
        method: 'put',
        path: '/patients/{id}/alerts/{alertId}',
        params,
        values,
        idempotencyKey: closeKey.keyFor({ params, values }),
        successNotification: success('Alerta cerrada correctamente'),
        errorNotification: serverError(),
      },
      {
        onSuccess: () => {
          closeKey.succeeded();
          setClosing(false);
          onClosed();
        },
        onError: () => void reload(),
      },
    );
  };

  return (
    <Card size="small" title="Gestionar alerta">
      <div className="alert-entries">
        {alert.entries.length === 0 ? (
          <Empty description="No existen entradas" image={Empty.PRESENTED_IMAGE_SIMPLE} />
        ) : (
          <List
            size="small"
            dataSource={alert.entries}
            renderItem={(e) => (
              <List.Item>
                <ItemMeta
                  // An entry no user wrote is Vigía's own (escalation, automatic close), not the AI assistant's.
                  avatar={e.user_id == null ? <RobotOutlined aria-label="Entrada automática" /> : undefined}
                  title={<span>{displayName(e.user_name)}</span>}
                  description={
                    <>
                      <Typography.Paragraph style={{ margin: 0, color: 'inherit' }}>{e.description}</Typography.Paragraph>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {formatWhen(e.created_at, alert.time_zone_patient)}
                      </Typography.Text>
                    </>
                  }
                />
              </List.Item>
            )}
          />
        )}
        {closed && (
          <Typography.Text strong>
            Alerta cerrada por <span>{displayName(alert.closed_by_name ?? alert.entries.at(-1)?.user_name)}</span>
          </Typography.Text>
        )}
      </div>
      {!closed && (
        <>
          {!access.allowed && <Alert type="info" showIcon className="alert-readonly" message={access.reason} />}
          <Input.TextArea
            aria-label="Nueva entrada"
            placeholder={access.allowed ? `Escriba una nueva entrada (mínimo ${ENTRY_MIN_LENGTH} caracteres)` : access.reason}
            autoSize={{ minRows: 3, maxRows: 6 }}
            maxLength={2000}
            value={text}
            disabled={!access.allowed}
            onChange={(e) => setText(e.target.value)}
          />
          <Space style={{ marginTop: 8 }} wrap>
            <Tooltip title={access.reason}>
              <Button onClick={addEntry} disabled={!access.allowed || !valid || busy} loading={busy && !closing}>
                Evolución
              </Button>
            </Tooltip>
            <Tooltip title={access.reason}>
              <Button type="primary" danger onClick={() => setClosing(true)} disabled={!access.allowed || !valid || busy}>
                Cerrar Alerta
              </Button>
            </Tooltip>
          </Space>
        </>
      )}
      <Modal
        open={closing}
        title="Cerrar alerta"
        okText="Guardar y Finalizar"
        cancelText="Cancelar"
        confirmLoading={busy}
        onOk={close}
        onCancel={() => setClosing(false)}
        destroyOnHidden
      >
        <Typography.Paragraph>Clasificación del cierre de alerta:</Typography.Paragraph>
        <RadioGroup
          value={closeType}
          onChange={(e) => setCloseType(e.target.value)}
          options={[
            { value: 'true_alert', label: 'Alerta verdadera' },
            { value: 'false_alert', label: 'Alerta falsa' },
          ]}
        />
      </Modal>
    </Card>
  );
}

/**
 * 'Abrir teleconsulta' (issue 51): a teleconsultation of the alert's patient that records the alert
 * it was opened from; its screen is the encounter's. The server's rule: clinical.write.
 */
function OpenTeleconsultationButton({ patientId, alertId }: { patientId: number; alertId: number }) {
  const navigate = useNavigate();
  const { mutate, mutation } = useApiMutation();
  const access = roleAccess('clinical.write');
  const open = () =>
    mutate(
      {
        method: 'post',
        path: '/patients/{id}/encounters',
        params: { id: patientId },
        values: { kind: 'teleconsultation', alert_id: alertId },
        successNotification: success('Teleconsulta abierta: registre la consulta y ciérrela.'),
        errorNotification: serverError('No fue posible abrir la teleconsulta'),
      },
      { onSuccess: ({ data }) => navigate(`/encounters/${data.id}`) },
    );
  return (
    <Tooltip title={access.reason}>
      <Button icon={<VideoCameraOutlined />} onClick={open} loading={mutation.isPending} disabled={!access.allowed}>
        Abrir teleconsulta
      </Button>
    </Tooltip>
  );
}

/** Alert detail, /patients/:patient_id/alerts/:alert_id (02 §2.8). */
export default function AlertDetailPage() {
  const { patient_id, alert_id } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { query, result } = useApiQuery('/patients/{id}/alerts/{alertId}', {
    // The route always has both.
    params: { id: patient_id ?? '', alertId: alert_id ?? '' },
    // A network failure stays quiet (the page keeps waiting); anything else says why.
    errorNotification: (error) => (error?.statusCode === 0 ? false : serverError('No fue posible cargar la alerta')(error)),
  });
  const alert = query.data ? result.data : null;
  const status = query.error?.statusCode ?? 0;
  const missing = status >= 400 && status < 500;
  // Any other failure, or no network: said in place with 'Reintentar' (P212), not a skeleton for ever.
  const readState = useReadState([query], false, 'la alerta');
  const now = useNow();
  usePageTitle(alert ? `Alerta #${alert.id}` : 'Detalle de la alerta');
  const back = params.get('source') === 'management' ? '/alerts_management' : `/patients/${patient_id}?tab=alerts`;

  if (missing) return <Navigate to="/404notfound" replace />;
  if (!alert)
    return readState.phase === 'failed' ? (
      <section className="vigia-page">
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(back)} style={{ marginBottom: 12 }}>
          Volver
        </Button>
        <ReadFailedAlert status={readState} />
      </section>
    ) : (
      <Skeleton active />
    );
  const m = alert.measurement;
  const ai = alert.type === 3;
  return (
    <section className="vigia-page">
      <ReadFailedAlert status={readState} />
      <Space style={{ marginBottom: 12 }} wrap>
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(back)}>
          Volver
        </Button>
        <Typography.Title level={1} className="vigia-page-title">
          {alert.patient.full_name}
        </Typography.Title>
        <Typography.Text type="secondary">Documento {alert.patient.nid}</Typography.Text>
        <OpenTeleconsultationButton patientId={Number(patient_id)} alertId={alert.id} />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card
            styles={{ body: { padding: 0 } }}
            title={
              <Space wrap>
                {ai ? <RobotOutlined /> : <HeartOutlined />}
                <span>{ai ? 'Alerta del asistente IA' : alert.type === 0 ? (alert.alarm?.name ?? alert.type_name) : alert.type_name}</span>
                <Tag color={PRIORITY_TAG[alert.priority]}>Prioridad {alert.priority_name}</Tag>
                <Tag color={alert.status === 1 ? 'red' : 'green'}>{alert.status_name}</Tag>
                {alert.escalated_at && <Tag color="magenta">Escalada</Tag>}
              </Space>
            }
          >
            <div style={{ padding: 16 }}>
              {alert.type === 0 && m ? (
                <Descriptions column={1} size="small">
                  <Descriptions.Item label="Elemento clínico">{m.clinical_element_name}</Descriptions.Item>
                  <Descriptions.Item label="Fecha de la medición">{formatWhen(m.when, alert.time_zone_patient)}</Descriptions.Item>
                  <Descriptions.Item label="Valor">
                    <Typography.Text strong style={{ fontSize: 20 }}>
                      {m.value} {m.clinical_element_unit}
                    </Typography.Text>
                  </Descriptions.Item>
                  {alert.alarm && (
                    <Descriptions.Item label="Rango de la alarma">
                      {alert.alarm.minimum_condition} - {alert.alarm.maximum_condition} {m.clinical_element_unit}
                    </Descriptions.Item>
                  )}
                </Descriptions>
              ) : (
                <Descriptions column={1} size="small">
                  <Descriptions.Item label="Descripción">{alert.description ?? alert.type_name}</Descriptions.Item>
                  <Descriptions.Item label="Creada">{formatWhen(alert.created_at, alert.time_zone_patient)}</Descriptions.Item>
                </Descriptions>
              )}
            </div>
            <div className="alert-footer" style={{ background: PRIORITY_COLORS[alert.priority] }}>
              <span>ID {alert.id}</span>
              <span>
                {alert.status === 1
                  ? `Abierta: ${formatElapsed(new Date(alert.created_at), now)}`
                  : `Cerrada el ${formatWhen(alert.closed_at ?? alert.created_at, alert.time_zone_patient)}`}
              </span>
            </div>
          </Card>
          {alert.type === 0 && (
            <Suspense fallback={<Skeleton active />}>
              <MeasurementsPanel alert={alert} />
            </Suspense>
          )}
        </Col>
        <Col xs={24} lg={10}>
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <ManagePanel alert={alert} onClosed={() => navigate(back)} />
            <ContactCard alert={alert} />
          </Space>
        </Col>
      </Row>
    </section>
  );
}
