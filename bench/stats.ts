/** Latency percentiles over the raw samples (nearest rank), in milliseconds. */
export interface Latency {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(samples: number[]): Latency {
  if (!samples.length) return { count: 0, mean: NaN, p50: NaN, p95: NaN, p99: NaN, max: NaN };
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  let sum = 0;
  for (const v of sorted) sum += v;
  return { count: sorted.length, mean: sum / sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] };
}
