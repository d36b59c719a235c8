import { useMemo } from 'react';
import { Line } from '@ant-design/plots';
import { axisLabel, timeDomain, timeTicks, valueDomain, type AlarmBand, type ChartPoint } from '../rules/charts';
import { formatWhen } from '../rules/dates';

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
}

const SERIES_COLORS = ['#0a6fa8', '#c41d7f'];

/**
 * One vital sign over time (01 §2 Signos): the series (two for blood pressure), the alarm ranges as
 * bands by priority, a single point centred in ±15 days, at most 6 time ticks. Loaded lazily: the
 * plotting library is a chunk of its own.
 */
export default function MeasurementChart({
  series,
  bands,
  unit,
  timeZone,
  height = 240,
}: {
  series: ChartSeries[];
  bands: AlarmBand[];
  unit: string;
  timeZone: string;
  height?: number;
}) {
  const config = useMemo(() => {
    const all = series.flatMap((s) => s.points);
    const xDomain = timeDomain(all) ?? [Date.now() - 86_400_000, Date.now()];
    const yDomain = valueDomain(
      all.map((p) => p.value),
      bands,
    ) ?? [0, 1];
    const ticks = timeTicks(xDomain).map((t) => new Date(t));
    const data = series.flatMap((s) => s.points.map((p) => ({ when: new Date(p.when), value: p.value, series: s.name })));
    return {
      data,
      xField: 'when',
      yField: 'value',
      colorField: 'series',
      height,
      autoFit: true,
      point: { shapeField: 'circle', sizeField: 3 },
      scale: {
        x: { type: 'time', domain: xDomain.map((t) => new Date(t)), tickMethod: () => ticks, nice: false },
        y: { domain: yDomain, nice: true },
        color: { range: SERIES_COLORS },
      },
      axis: {
        x: { title: false, labelFormatter: (d: Date) => axisLabel(d.getTime(), xDomain, timeZone), labelAutoHide: true },
        y: { title: unit, titleSpacing: 8 },
      },
      legend: series.length > 1 ? { color: { position: 'top' as const } } : false,
      tooltip: {
        title: (d: { when: Date }) => formatWhen(d.when, timeZone),
        items: [{ channel: 'y', valueFormatter: (v: number) => `${v} ${unit}` }],
      },
      annotations: bands.map((b) => ({
        type: 'rangeY',
        data: [{ y: [b.from, b.to] }],
        yField: 'y',
        style: { fill: b.color, fillOpacity: 0.1 },
        tooltip: false,
      })),
    };
  }, [series, bands, unit, timeZone, height]);
  // The plot's option types are looser than its runtime; the values above are what G2 reads.
  return <Line {...(config as unknown as Parameters<typeof Line>[0])} />;
}
