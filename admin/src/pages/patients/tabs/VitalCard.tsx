/** One chart card of the Signos tab: a vital sign's latest readings, its chart with the alarm bands, and the last readings list. */
import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, Card, Empty, List, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { Select } from '../../../crud/form-controls';
import { DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
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
import { useElementReads, type Measurement } from '../../../charts/measurement-reads';
import type { Reading } from './MeasurementDialogs';

/**
 * The plotting library (its own ~1.5 MB chunk) starts loading with this tab, while the cards fetch
 * their readings, instead of after the first answer: the charts show ~0.3 s sooner (bench, patient
 * page in Chromium). Only this tab loads it; the sign-in page and the other tabs never do.
 */
const loadChart = () => import('../../../charts/MeasurementChart');
void loadChart();
const MeasurementChart = lazy(loadChart);

type ChartDef = (typeof CHARTS)[number];

const toPoint = (m: Measurement): ChartPoint => ({ when: Date.parse(m.when), value: m.value });

export function VitalCard({
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
