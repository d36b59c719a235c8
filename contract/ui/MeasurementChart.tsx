import { useMemo } from 'react';
import { Line } from '@ant-design/plots';
import {
  NORMAL_ZONE,
  SERIES_COLORS,
  axisLabel,
  chartSummary,
  distinctTicks,
  timeDomain,
  timeTicks,
  valueDomain,
  valueZones,
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
  onDrawn,
}: {
  series: ChartSeries[];
  bands: AlarmBand[];
  unit: string;
  timeZone: string;
  height?: number;
  /** Named first in the description ('Gráfica de Glucosa'). */
  title?: string;
  /** Called each time the library has drawn the chart (its 'afterrender' event). */
  onDrawn?: () => void;
}) {
  const { config, zones } = useMemo(() => {
    const all = series.flatMap((s) => s.points);
    const xDomain = timeDomain(all) ?? [Date.now() - 86_400_000, Date.now()];
    const yDomain = valueDomain(
      all.map((p) => p.value),
      bands,
    ) ?? [0, 1];
    // One tick per date (issue 50): six evenly spaced instants over three days named 21/11 twice.
    const ticks = distinctTicks(timeTicks(xDomain), (t) => axisLabel(t, xDomain, timeZone)).map((t) => new Date(t));
    // In range green, out of range in its priority's colour, to the axis' ends (issue 50).
    const zones = valueZones(bands, yDomain);
    const data = series.flatMap((s) => s.points.map((p) => ({ when: new Date(p.when), value: p.value, series: s.name })));
    const config = {
      data,
      xField: 'when',
      yField: 'value',
      colorField: 'series',
      height,
      autoFit: true,
      // Drawn at once (issue 52): an entry animation keeps the main thread drawing frames while the
      // other charts wait, and a clinician reads the values, not the motion.
      animate: false,
      point: { shapeField: 'circle', sizeField: 3 },
      scale: {
        x: { type: 'time', domain: xDomain.map((t) => new Date(t)), tickMethod: () => ticks, nice: false },
        // Not 'nice': the zones reach the axis' ends, which valueDomain already rounds.
        y: { domain: yDomain, nice: false },
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
      interaction: {
        tooltip: {
          // Never wider than half the chart, its lines wrapped (issue 52): G2 places the tooltip on
          // the side of the pointer with room for it, and on a 390-px phone a 213-px tooltip had room
          // on neither side of a reading in the middle, so it ran off the screen.
          css: {
            '.g2-tooltip': { 'max-width': 'calc(50% - 16px)', 'white-space': 'normal' },
            // The value whole (it was cut to '95…'); the series' name wraps instead.
            '.g2-tooltip-list-item-name-label': { 'white-space': 'normal' },
            '.g2-tooltip-list-item-value': { flex: 'none', 'margin-left': '12px', overflow: 'visible' },
          },
        },
      },
      annotations: [
        ...zones.map((z) => ({
          type: 'rangeY',
          data: [{ y: [z.from, z.to] }],
          yField: 'y',
          // The form G2 draws (a colour and its opacity); the zone's rgba fill says the same in words.
          style: { fill: z.color, fillOpacity: z.priority == null ? 0.14 : 0.12 },
          tooltip: false,
        })),
        ...bands.flatMap((b) => [
          // A two-series chart has no zones: each series' range is drawn in range (green), edged below.
          ...(b.series
            ? [
                {
                  type: 'rangeY',
                  data: [{ y: [b.from, b.to] }],
                  yField: 'y',
                  style: { fill: NORMAL_ZONE.color, fillOpacity: 0.14 },
                  tooltip: false,
                },
              ]
            : []),
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
      ],
    };
    return { config, zones };
  }, [series, bands, unit, timeZone, height]);
  // The plot's option types are looser than its runtime; the values above are what G2 reads.
  return (
    <div
      role="img"
      aria-label={title ? `${title}. ${chartSummary(series, bands, unit)}` : chartSummary(series, bands, unit)}
      className="measurement-chart"
      data-zones={zones.map((z) => `${z.from}–${z.to} ${z.label} ${z.color}`).join('; ')}
    >
      <Line
        {...(config as unknown as Parameters<typeof Line>[0])}
        onEvent={(_chart: unknown, event: { type?: string }) => {
          if (event.type === 'afterrender') onDrawn?.();
        }}
      />
    </div>
  );
}
