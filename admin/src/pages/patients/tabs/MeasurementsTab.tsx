import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Empty, List, Row, Select, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  CHARTS,
  CHART_EMPTY,
  CHART_LOAD_ERROR,
  LAST_READINGS,
  SERIES_NAMES,
  alarmBands,
  defaultLatest,
  latestOptions,
  latestPoints,
  pairBloodPressure,
  showLatestSelector,
  type ChartPoint,
} from '@vigia/contract/rules/charts';
import { formatWhen } from '@vigia/contract/rules/dates';
import { alarmRanges, latestReadings, useElementReads, type Measurement } from '../../../charts/measurement-reads';
import { usePrefetchCustom, useInvalidatePaths } from '../hooks/data';
import type { PatientTabProps } from '../types';
import type { Reading } from './MeasurementDialogs';

/**
 * The plotting library (its own ~1.5 MB chunk) starts loading with this tab, while the cards fetch
 * their readings, instead of after the first answer: the charts show ~0.3 s sooner (bench, patient
 * page in Chromium). Only this tab loads it; the sign-in page and the other tabs never do.
 */
const loadChart = () => import('../../../charts/MeasurementChart');
void loadChart();
const MeasurementChart = lazy(loadChart);
/** The record and delete forms (date picker, form, text area) load when first opened. */
const RecordDialog = lazy(() => import('./MeasurementDialogs').then((m) => ({ default: m.RecordDialog })));
const DeleteDialog = lazy(() => import('./MeasurementDialogs').then((m) => ({ default: m.DeleteDialog })));

type ChartDef = (typeof CHARTS)[number];

const toPoint = (m: Measurement): ChartPoint => ({ when: Date.parse(m.when), value: m.value });

function VitalCard({
  chart,
  patientId,
  timeZone,
  active,
  canDelete,
  onDelete,
}: {
  chart: ChartDef;
  patientId: number;
  timeZone: string;
  /** While the tab is visible; showing it again reads afresh (01 §2). */
  active: boolean;
  canDelete: boolean;
  onDelete: (r: Reading) => void;
}) {
  const [latest, setLatest] = useState<number | null>(null);
  const elements = chart.elements as readonly number[];
  // At most two elements a card (blood pressure: systolic and diastolic).
  const first = useElementReads(patientId, elements[0], active);
  const second = useElementReads(patientId, elements[1] ?? elements[0], active && elements.length > 1);
  const pair = elements.length > 1;
  const loading = first.loading || (pair && second.loading);
  const failed = first.failed || !first.rows || (pair && (second.failed || !second.rows));
  const loaded = useMemo(() => {
    if (loading) return { state: 'loading' } as const;
    if (failed) return { state: 'error' } as const;
    const rows = pair ? [first.rows!, second.rows!] : [first.rows!];
    const ranges = pair ? [...first.ranges, ...second.ranges] : first.ranges;
    return { state: 'ok', rows, bands: alarmBands(ranges, elements) } as const;
  }, [loading, failed, pair, first.rows, first.ranges, second.rows, second.ranges, elements]);
  // A new answer shows the default number of readings again.
  const [answeredAt, setAnsweredAt] = useState(first.updatedAt + second.updatedAt);
  if (answeredAt !== first.updatedAt + second.updatedAt) {
    setAnsweredAt(first.updatedAt + second.updatedAt);
    setLatest(null);
  }
  const load = () => {
    first.reload();
    if (pair) second.reload();
  };

  const view = useMemo(() => {
    if (loaded.state !== 'ok') return null;
    if (chart.key === 'blood_pressure') {
      const [sys, dia] = loaded.rows;
      const pairs = pairBloodPressure(sys.map(toPoint), dia.map(toPoint));
      const byWhen = new Map(sys.map((m) => [Date.parse(m.when), m]));
      const readings: Reading[] = (pairs ?? [])
        .slice()
        .reverse()
        .map((p) => {
          const m = byWhen.get(p.when)!;
          return {
            id: m.id,
            when: m.when,
            text: `${p.systolic}/${p.diastolic} ${chart.unit}`,
            eraseble: m.eraseble,
            label: 'Presión arterial',
          };
        });
      const count = pairs?.length ?? 0;
      return {
        drawable: pairs !== null,
        count,
        readings,
        series: (n: number) => [
          { name: SERIES_NAMES[3], points: latestPoints(sys.map(toPoint), n) },
          { name: SERIES_NAMES[4], points: latestPoints(dia.map(toPoint), n) },
        ],
      };
    }
    const rows = loaded.rows[0];
    const readings: Reading[] = rows.map((m) => ({
      id: m.id,
      when: m.when,
      text: `${m.value} ${chart.unit}`,
      eraseble: m.eraseble,
      label: chart.title,
    }));
    return {
      drawable: true,
      count: rows.length,
      readings,
      series: (n: number) => [{ name: chart.title, points: latestPoints(rows.map(toPoint), n) }],
    };
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
        <Alert
          type="error"
          showIcon
          message={CHART_LOAD_ERROR}
          action={
            <Button size="small" onClick={() => void load()}>
              Reintentar
            </Button>
          }
        />
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
              {bands
                .slice()
                .reverse()
                .map((b) => (
                  <Tag key={b.key} color={b.color}>{`${b.label} (${b.from}–${b.to})`}</Tag>
                ))}
            </Space>
          )}
          <Typography.Text strong style={{ display: 'block', marginTop: 8 }}>
            Últimas lecturas
          </Typography.Text>
          <List
            size="small"
            dataSource={view.readings.slice(0, LAST_READINGS)}
            renderItem={(r) => (
              <List.Item
                actions={
                  canDelete && r.eraseble
                    ? [
                        <Tooltip key="del" title="Eliminar medición">
                          <Button
                            type="text"
                            size="small"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label={`Eliminar medición ${r.text} del ${formatWhen(r.when, timeZone)}`}
                            onClick={() => onDelete(r)}
                          />
                        </Tooltip>,
                      ]
                    : []
                }
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

/** Tab 'Signos' of the patient page: one chart per vital sign (01 §2). */
export default function MeasurementsTab({ patient, active }: PatientTabProps) {
  const [recording, setRecording] = useState(false);
  const [deleting, setDeleting] = useState<Reading | null>(null);
  const canWrite = patient.permissions.edit;
  const blocked =
    patient.status === 0
      ? 'El paciente está inactivo y no puede enviar mediciones.'
      : patient.status === 3
        ? 'El paciente está registrado como fallecido.'
        : null;
  const invalidate = useInvalidatePaths();
  const refresh = () => void invalidate(`/patients/${patient.id}/measurements`, `/patients/${patient.id}/alarms`);
  // Every card's reads leave while the tab renders, not once the cards are on screen: the first
  // render of the tab takes ~0.3 s of the main thread (bench, patient page in Chromium). The cards
  // read the same cache entries; afterwards, becoming the visible tab again reloads them (01 §2).
  const prefetch = usePrefetchCustom();
  useMemo(() => {
    for (const chart of CHARTS) {
      for (const element of chart.elements) {
        const readings = latestReadings(patient.id, element);
        const ranges = alarmRanges(patient.id, element);
        prefetch(readings.url, readings.query);
        prefetch(ranges.url, ranges.query);
      }
    }
  }, [prefetch, patient.id]);

  return (
    <div className="measurements-tab">
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'flex-end' }}>
        <Button icon={<ReloadOutlined />} onClick={refresh}>
          Recargar
        </Button>
        <Tooltip title={!canWrite ? 'Su rol no permite registrar mediciones.' : blocked}>
          <Button type="primary" icon={<PlusOutlined />} disabled={!canWrite || !!blocked} onClick={() => setRecording(true)}>
            Registrar medición
          </Button>
        </Tooltip>
      </Space>
      <Row gutter={[16, 16]}>
        {CHARTS.map((chart) => (
          <Col key={chart.key} xs={24} xl={12}>
            <VitalCard
              chart={chart}
              patientId={patient.id}
              timeZone={patient.time_zone}
              active={active}
              canDelete={canWrite}
              onDelete={setDeleting}
            />
          </Col>
        ))}
      </Row>
      <Suspense fallback={null}>
        {recording && (
          <RecordDialog
            open
            patientId={patient.id}
            onClose={() => setRecording(false)}
            onSaved={() => {
              setRecording(false);
              refresh();
            }}
          />
        )}
        {deleting && (
          <DeleteDialog
            reading={deleting}
            patientId={patient.id}
            timeZone={patient.time_zone}
            onClose={() => setDeleting(null)}
            onDeleted={() => {
              setDeleting(null);
              refresh();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
