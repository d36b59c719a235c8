import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Card, Col, DatePicker, Empty, Form, Input, List, Modal, Radio, Row, Select, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import {
  CHARTS, CHART_EMPTY, CHART_LOAD_ERROR, LAST_READINGS, MEASUREMENT_DELETE_ERROR, SERIES_NAMES,
  alarmBands, defaultLatest, latestOptions, latestPoints, pairBloodPressure, showLatestSelector, type AlarmBand, type ChartPoint,
} from '../../../../../contract/rules/charts';
import { DELETION_REASON_MAX, DELETION_REASON_MESSAGE, validateDeletionReason, validateVitalValue } from '../../../../../contract/rules/vitals';
import { formatWhen, measurementsApi, type Measurement } from '../../../charts/measurements.api';
import type { PatientTabProps } from '../types';

const MeasurementChart = lazy(() => import('../../../charts/MeasurementChart'));

type ChartDef = (typeof CHARTS)[number];

/** One reading as the 'últimas lecturas' list shows it (blood pressure: systolic/diastolic). */
interface Reading {
  id: number;
  when: string;
  text: string;
  eraseble: boolean;
  label: string;
}

type Loaded =
  | { state: 'loading' }
  | { state: 'error' }
  | { state: 'ok'; rows: Measurement[][]; total: number; bands: AlarmBand[] };

const toPoint = (m: Measurement): ChartPoint => ({ when: Date.parse(m.when), value: m.value });

function VitalCard({ chart, patientId, timeZone, version, canDelete, onDelete }: {
  chart: ChartDef;
  patientId: number;
  timeZone: string;
  version: number;
  canDelete: boolean;
  onDelete: (r: Reading) => void;
}) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [latest, setLatest] = useState<number | null>(null);
  const elements = chart.elements as readonly number[];

  const load = useCallback(async () => {
    setLoaded({ state: 'loading' });
    try {
      const [lists, alarms] = await Promise.all([
        Promise.all(elements.map((e) => measurementsApi.latest(patientId, e))),
        Promise.all(elements.map((e) => measurementsApi.alarms(patientId, e))),
      ]);
      setLoaded({ state: 'ok', rows: lists.map((l) => l.rows), total: lists[0].total, bands: alarmBands(alarms.flat(), elements) });
      setLatest(null);
    } catch {
      setLoaded({ state: 'error' });
    }
  }, [patientId, elements]);

  useEffect(() => {
    void load();
  }, [load, version]);

  const view = useMemo(() => {
    if (loaded.state !== 'ok') return null;
    if (chart.key === 'blood_pressure') {
      const [sys, dia] = loaded.rows;
      const pairs = pairBloodPressure(sys.map(toPoint), dia.map(toPoint));
      const byWhen = new Map(sys.map((m) => [Date.parse(m.when), m]));
      const readings: Reading[] = (pairs ?? []).slice().reverse().map((p) => {
        const m = byWhen.get(p.when)!;
        return { id: m.id, when: m.when, text: `${p.systolic}/${p.diastolic} ${chart.unit}`, eraseble: m.eraseble, label: 'Presión arterial' };
      });
      const count = pairs?.length ?? 0;
      return { drawable: pairs !== null, count, readings, series: (n: number) => [
        { name: SERIES_NAMES[3], points: latestPoints(sys.map(toPoint), n) },
        { name: SERIES_NAMES[4], points: latestPoints(dia.map(toPoint), n) },
      ] };
    }
    const rows = loaded.rows[0];
    const readings: Reading[] = rows.map((m) => ({ id: m.id, when: m.when, text: `${m.value} ${chart.unit}`, eraseble: m.eraseble, label: chart.title }));
    return { drawable: true, count: rows.length, readings, series: (n: number) => [{ name: chart.title, points: latestPoints(rows.map(toPoint), n) }] };
  }, [loaded, chart]);

  const count = view?.count ?? 0;
  const n = latest ?? defaultLatest(count);
  const bands = loaded.state === 'ok' ? loaded.bands : [];

  return (
    <Card
      size="small"
      className="vital-card"
      title={`${chart.title} (${chart.unit})`}
      extra={
        <Space size="small">
          {showLatestSelector(count) && (
            <Space size={4}>
              <Typography.Text type="secondary">Mostrar últimos</Typography.Text>
              <Select
                size="small"
                aria-label={`Mostrar últimos: ${chart.title}`}
                value={n}
                style={{ width: 92 }}
                onChange={setLatest}
                options={latestOptions(count).map((o) => ({ value: o, label: o === count ? `Todos (${o})` : String(o) }))}
              />
            </Space>
          )}
          <Tooltip title="Recargar">
            <Button size="small" icon={<ReloadOutlined />} aria-label={`Recargar ${chart.title}`} onClick={() => void load()} />
          </Tooltip>
        </Space>
      }
    >
      {loaded.state === 'loading' && <Skeleton active paragraph={{ rows: 5 }} />}
      {loaded.state === 'error' && (
        <Alert type="error" showIcon message={CHART_LOAD_ERROR} action={<Button size="small" onClick={() => void load()}>Reintentar</Button>} />
      )}
      {view && count === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={CHART_EMPTY} />}
      {view && count > 0 && (
        <>
          {view.drawable ? (
            <div className="vital-chart" data-testid={`chart-${chart.key}`} data-points={Math.min(n, count)}>
              <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: 240 }} />}>
                <MeasurementChart series={view.series(n)} bands={bands} unit={chart.unit} timeZone={timeZone} />
              </Suspense>
            </div>
          ) : (
            <Alert type="warning" showIcon message="Las lecturas sistólicas y diastólicas no coinciden; la gráfica no se puede dibujar." />
          )}
          {bands.length > 0 && (
            <Space size={[4, 4]} wrap style={{ margin: '8px 0' }}>
              {bands.slice().reverse().map((b) => (
                <Tag key={b.key} color={b.color}>{`${b.label} (${b.from}–${b.to})`}</Tag>
              ))}
            </Space>
          )}
          <Typography.Text strong style={{ display: 'block', marginTop: 8 }}>Últimas lecturas</Typography.Text>
          <List
            size="small"
            dataSource={view.readings.slice(0, LAST_READINGS)}
            renderItem={(r) => (
              <List.Item
                actions={canDelete && r.eraseble ? [
                  <Tooltip key="del" title="Eliminar medición">
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`Eliminar medición ${r.text} del ${formatWhen(r.when, timeZone)}`} onClick={() => onDelete(r)} />
                  </Tooltip>,
                ] : []}
              >
                <Typography.Text type="secondary">{formatWhen(r.when, timeZone)}</Typography.Text>
                <Typography.Text strong>{r.text}</Typography.Text>
              </List.Item>
            )}
          />
        </>
      )}
    </Card>
  );
}

interface RecordValues {
  chart: ChartDef['key'];
  value?: string;
  systolic?: string;
  diastolic?: string;
  when: Dayjs;
}

/** 'Registrar medición': one reading; blood pressure as systolic and diastolic (D6, 03 §5 vitals rule). */
function RecordDialog({ open, patientId, onClose, onSaved }: { open: boolean; patientId: number; onClose: () => void; onSaved: () => void }) {
  const { notification } = App.useApp();
  const [form] = Form.useForm<RecordValues>();
  const [saving, setSaving] = useState(false);
  const key = Form.useWatch('chart', form);
  const chart = CHARTS.find((c) => c.key === key) ?? CHARTS[0];
  const isPressure = chart.key === 'blood_pressure';

  useEffect(() => {
    if (open) form.setFieldsValue({ chart: 'heart_rate', value: undefined, systolic: undefined, diastolic: undefined, when: dayjs() });
  }, [open, form]);

  const rule = (element: number) => ({ required: true, validator: (_: unknown, v: string | undefined) => {
    const message = validateVitalValue(element, v?.trim() ?? '');
    return message ? Promise.reject(new Error(message)) : Promise.resolve();
  } });

  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const when = v.when.toDate().toISOString();
      await measurementsApi.record(patientId, isPressure
        ? { systolic: Number(v.systolic), diastolic: Number(v.diastolic), when }
        : { clinical_element: chart.elements[0], value: Number(v.value), when });
      notification.success({ message: 'Medición registrada correctamente' });
      onSaved();
    } catch (e) {
      const err = e as { message?: string; errors?: Record<string, string[]> };
      const fields = Object.entries(err.errors ?? {}).filter(([f]) => ['value', 'systolic', 'diastolic', 'when'].includes(f));
      if (fields.length) form.setFields(fields.map(([name, errors]) => ({ name: name as keyof RecordValues, errors })));
      else notification.error({ message: err.message ?? 'No fue posible registrar la medición' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title="Registrar medición" okText="Guardar" cancelText="Cancelar" onOk={() => void submit()} onCancel={onClose} confirmLoading={saving} destroyOnHidden>
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="chart" label="Signo vital" rules={[{ required: true, message: '¡El campo es requerido!' }]}>
          <Radio.Group optionType="button" buttonStyle="solid" options={CHARTS.map((c) => ({ value: c.key, label: c.title }))} style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }} />
        </Form.Item>
        {isPressure ? (
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="systolic" label="Sistólica (mmHg)" rules={[rule(3)]}>
                <Input inputMode="decimal" maxLength={5} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="diastolic" label="Diastólica (mmHg)" rules={[rule(4)]}>
                <Input inputMode="decimal" maxLength={5} />
              </Form.Item>
            </Col>
          </Row>
        ) : (
          <Form.Item name="value" label={`Valor (${chart.unit})`} rules={[rule(chart.elements[0])]}>
            <Input inputMode="decimal" maxLength={5} />
          </Form.Item>
        )}
        <Form.Item name="when" label="Fecha y hora" rules={[{ required: true, message: '¡El campo es requerido!' }]}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="DD/MM/YYYY HH:mm" style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs(), 'day')} allowClear={false} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Soft delete with a reason of 15 to 140 characters (D15, 01 §4). */
function DeleteDialog({ reading, patientId, timeZone, onClose, onDeleted }: { reading: Reading | null; patientId: number; timeZone: string; onClose: () => void; onDeleted: () => void }) {
  const { notification } = App.useApp();
  const [comment, setComment] = useState('');
  const [saving, setSaving] = useState(false);
  useEffect(() => setComment(''), [reading]);
  const error = validateDeletionReason(comment);
  const remove = async () => {
    if (!reading || error) return;
    setSaving(true);
    try {
      await measurementsApi.remove(patientId, reading.id, comment.trim());
      notification.success({ message: 'Medición eliminada' });
      onDeleted();
    } catch {
      notification.error({ message: MEASUREMENT_DELETE_ERROR });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={!!reading}
      title="Eliminar medición"
      okText="Eliminar"
      cancelText="Cancelar"
      okButtonProps={{ danger: true, disabled: !!error }}
      confirmLoading={saving}
      onOk={() => void remove()}
      onCancel={onClose}
      destroyOnHidden
    >
      {reading && (
        <Typography.Paragraph>
          {reading.label}: <Typography.Text strong>{reading.text}</Typography.Text> del {formatWhen(reading.when, timeZone)}. La medición dejará de
          mostrarse en las gráficas y reportes.
        </Typography.Paragraph>
      )}
      <Form layout="vertical">
        <Form.Item label="Motivo de la eliminación" required validateStatus={comment && error ? 'error' : undefined} help={comment && error ? DELETION_REASON_MESSAGE : undefined}>
          <Input.TextArea aria-label="Motivo de la eliminación" value={comment} onChange={(e) => setComment(e.target.value)} rows={3} showCount maxLength={DELETION_REASON_MAX} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Tab 'Signos' of the patient page: one chart per vital sign (01 §2). */
export default function MeasurementsTab({ patient, active }: PatientTabProps) {
  const [version, setVersion] = useState(0);
  const [recording, setRecording] = useState(false);
  const [deleting, setDeleting] = useState<Reading | null>(null);
  // The cards load when mounted; afterwards, becoming the visible tab again reloads them (01 §2).
  const mounted = useRef(false);
  useEffect(() => {
    if (mounted.current && active) setVersion((v) => v + 1);
    mounted.current = true;
  }, [active]);
  const canWrite = patient.permissions.edit;
  const blocked = patient.status === 0 ? 'El paciente está inactivo y no puede enviar mediciones.' : patient.status === 3 ? 'El paciente está registrado como fallecido.' : null;
  const refresh = () => setVersion((v) => v + 1);

  return (
    <div className="measurements-tab">
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'flex-end' }}>
        <Button icon={<ReloadOutlined />} onClick={refresh}>Recargar</Button>
        <Tooltip title={!canWrite ? 'Su rol no permite registrar mediciones.' : blocked}>
          <Button type="primary" icon={<PlusOutlined />} disabled={!canWrite || !!blocked} onClick={() => setRecording(true)}>
            Registrar medición
          </Button>
        </Tooltip>
      </Space>
      <Row gutter={[16, 16]}>
        {CHARTS.map((chart) => (
          <Col key={chart.key} xs={24} xl={12}>
            <VitalCard chart={chart} patientId={patient.id} timeZone={patient.time_zone} version={version} canDelete={canWrite} onDelete={setDeleting} />
          </Col>
        ))}
      </Row>
      <RecordDialog open={recording} patientId={patient.id} onClose={() => setRecording(false)} onSaved={() => { setRecording(false); refresh(); }} />
      <DeleteDialog reading={deleting} patientId={patient.id} timeZone={patient.time_zone} onClose={() => setDeleting(null)} onDeleted={() => { setDeleting(null); refresh(); }} />
    </div>
  );
}
