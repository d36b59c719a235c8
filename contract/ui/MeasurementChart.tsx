import { useMemo } from 'react';
import { Line } from '@ant-design/plots';
import {
  SERIES_COLORS,
  axisLabel,
  chartSummary,
  timeDomain,
  timeTicks,
  valueDomain,
  type AlarmBand,
  type ChartPoint,
} from '../rules/charts';
import { formatWhen } from '../rules/dates';

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
}

/**
 * One vital sign over time (01 §2 Signos): the series (two for blood pressure), the alarm ranges as
 * bands by priority (on a two-series chart each band edged and captioned in its series' colour), a
 * single point centred in ±15 days, at most 6 time ticks. Loaded lazily: the plotting library is a
 * chunk of its own. The canvas is described in words (role img) for screen readers.
 */
export default function MeasurementChart({
  series,
  bands,
  unit,
  timeZone,
  height = 240,
  title,
}: {
  series: ChartSeries[];
  bands: AlarmBand[];
  unit: string;
  timeZone: string;
  height?: number;
  /** Named first in the description ('Gráfica de Glucosa'). */
  title?: string;
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
        color: { range: [...SERIES_COLORS] },
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
      annotations: bands.flatMap((b) => [
        {
          type: 'rangeY',
          data: [{ y: [b.from, b.to] }],
          yField: 'y',
          style: { fill: b.color, fillOpacity: 0.1 },
          tooltip: false,
        },
        // A series' band: both ends in the series' colour, its caption inside the band's top.
        ...(b.series
          ? [b.from, b.to].map((y, i) => ({
              type: 'lineY',
              data: [{ y }],
              yField: 'y',
              style: { stroke: b.series!.color, lineWidth: 1.5, lineDash: [6, 3], strokeOpacity: 0.9 },
              tooltip: false,
              ...(i === 1
                ? {
                    labels: [
                      {
                        text: b.series!.caption,
                        position: 'left',
                        textAlign: 'start',
                        textBaseline: 'top',
                        dx: 6,
                        dy: 3,
                        fill: b.series!.color,
                        fontSize: 11,
                        fontWeight: 600,
                      },
                    ],
                  }
                : {}),
            }))
          : []),
      ]),
    };
  }, [series, bands, unit, timeZone, height]);
  // The plot's option types are looser than its runtime; the values above are what G2 reads.
  return (
    <div
      role="img"
      aria-label={title ? `${title}. ${chartSummary(series, bands, unit)}` : chartSummary(series, bands, unit)}
      className="measurement-chart"
    >
      <Line {...(config as unknown as Parameters<typeof Line>[0])} />
    </div>
  );
}
