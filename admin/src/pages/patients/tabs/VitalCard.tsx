/** One chart card of the Signos tab: a vital sign's latest readings, its chart with the alarm bands, and the last readings list. */
import { Suspense, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, Dropdown, Empty, List, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { Select } from '../../../crud/form-controls';
import { DeleteOutlined, MoreOutlined, ReloadOutlined } from '@ant-design/icons';
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
import { ReadStateView, useReadState } from '../../../ui/ReadState';
import { useScrollOnArrival } from '../hooks/useScrollOnArrival';
import { useNearViewport } from '../../../hooks/useNearViewport';
import { useDrawTurn } from '../../../hooks/useDrawTurn';
import { MEASUREMENT_CHART } from '../../../route-modules';
import { lazyLoaded } from '../../../ui/loaded-lazy';

/**
 * The plotting library (its own ~1.5 MB chunk) starts loading with this tab, while the cards fetch
 * their readings, instead of after the first answer: the charts show ~0.3 s sooner (bench, patient
 * page in Chromium). Only this tab loads it; the sign-in page and the other tabs never do.
 */
void MEASUREMENT_CHART.load().catch(() => undefined);
const MeasurementChart = lazyLoaded(MEASUREMENT_CHART);

type ChartDef = (typeof CHARTS)[number];

/** Where a chart will be: while its library loads, and while its card is still far below the screen. */
const CHART_PLACEHOLDER = <Skeleton.Node active style={{ width: '100%', height: 240 }} />;

const toPoint = (m: Measurement): ChartPoint => ({ when: Date.parse(m.when), value: m.value });

export function VitalCard({
  chart,
  patientId,
  timeZone,
  active,
  canDelete,
  onDelete,
  arrivedFor = false,
}: {
  chart: ChartDef;
  patientId: number;
  timeZone: string;
  /** While the tab is visible; showing it again reads afresh (01 §2). */
  active: boolean;
  canDelete: boolean;
  onDelete: (r: Reading) => void;
  /** The page was opened for this chart (`?chart=`, a Signos flag of Priorización): scroll to it and focus it. */
  arrivedFor?: boolean;
}) {
  const [latest, setLatest] = useState<number | null>(null);
  const elements = chart.elements as readonly number[];
  // At most two elements a card (blood pressure: systolic and diastolic).
  const first = useElementReads(patientId, elements[0], active);
  const second = useElementReads(patientId, elements[1] ?? elements[0], active && elements.length > 1);
  const pair = elements.length > 1;
  // The last readings stay on screen while they are read again, and when that fails (P212).
  const unread = !first.rows || (pair && !second.rows);
  const loaded = useMemo(() => {
    if (unread) return { state: 'unread' } as const;
    const rows = pair ? [first.rows!, second.rows!] : [first.rows!];
    const ranges = pair ? [...first.ranges, ...second.ranges] : first.ranges;
    return { state: 'ok', rows, bands: alarmBands(ranges, elements) } as const;
  }, [unread, pair, first.rows, first.ranges, second.rows, second.ranges, elements]);
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
  const status = useReadState(
    pair ? [first.read, second.read] : [first.read],
    count === 0,
    `las lecturas de ${chart.title}`,
    CHART_LOAD_ERROR,
  );
  const n = latest ?? defaultLatest(count);
  const cardRef = useRef<HTMLElement>(null);
  useScrollOnArrival(cardRef, arrivedFor, active && status.phase !== 'loading', { focus: true });
  // Drawn when the card nears the screen (a screen's height ahead): the charts in view first.
  const near = useNearViewport(cardRef);
  // The charts of the tab take turns to draw, each painted before the next starts (useDrawTurn).
  const wantsChart = (near || arrivedFor) && !!view?.drawable && count > 0;
  const [turn, drawn] = useDrawTurn(wantsChart);
  const bands = loaded.state === 'ok' ? loaded.bands : [];

  return (
    <Card
      ref={cardRef as React.Ref<HTMLDivElement>}
      id={`vital-${chart.key}`}
      tabIndex={-1}
      role="region"
      aria-label={`${chart.title} (${chart.unit})`}
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
                style={{ width: 112 }}
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
      <ReadStateView
        status={status}
        loading={<Skeleton active paragraph={{ rows: 5 }} />}
        empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={CHART_EMPTY} />}
      >
        {view && count > 0 && (
          <>
            {view.drawable ? (
              <div className="vital-chart" data-testid={`chart-${chart.key}`} data-points={Math.min(n, count)}>
                {wantsChart && turn ? (
                  <Suspense fallback={CHART_PLACEHOLDER}>
                    <MeasurementChart
                      series={view.series(n)}
                      bands={bands}
                      unit={chart.unit}
                      timeZone={timeZone}
                      title={chart.title}
                      onDrawn={drawn}
                    />
                  </Suspense>
                ) : (
                  CHART_PLACEHOLDER
                )}
              </div>
            ) : (
              <Alert
                type="warning"
                showIcon
                message="Las lecturas sistólicas y diastólicas no coinciden; la gráfica no se puede dibujar."
              />
            )}
            {bands.length > 0 && (
              <Space size={[4, 4]} wrap style={{ margin: '8px 0' }}>
                {bands
                  .slice()
                  .reverse()
                  .map((b) => (
                    // Its colour is for readings outside the range (issue 50): the tag says so.
                    <Tag key={b.key} color={b.color} className="vital-band-tag">{`${b.label}: fuera de ${b.from}–${b.to}`}</Tag>
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
                          // Deleting sits behind a menu and a dialog that names the reading (issue 50):
                          // a bin beside every reading was one slip of a thumb from a deletion.
                          <Dropdown
                            key="more"
                            trigger={['click']}
                            menu={{
                              items: [{ key: 'delete', danger: true, icon: <DeleteOutlined />, label: 'Eliminar medición…' }],
                              onClick: () => onDelete(r),
                            }}
                          >
                            <Button
                              type="text"
                              size="small"
                              icon={<MoreOutlined />}
                              aria-label={`Más acciones: ${r.text} del ${formatWhen(r.when, timeZone)}`}
                            />
                          </Dropdown>,
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
      </ReadStateView>
    </Card>
  );
}
