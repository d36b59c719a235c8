/**
 * Seeded pseudo-random numbers for demo and benchmark data: the same seed yields the same
 * database, so a bug seen on demo data can be reproduced. Not for anything secret.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform real in [min, max). */
  float(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** Picks by relative weight: [[value, weight], ...]. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T;
  chance(probability: number): boolean;
  normal(mean: number, sd: number): number;
  /** k distinct items in random order. */
  sample<T>(items: readonly T[], k: number): T[];
  /** A new generator whose stream does not overlap this one's next draws in any useful sense. */
  fork(): Rng;
}

/** mulberry32: 32-bit state, fast, and good enough for synthetic data. */
function createMulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createRng(seed: number): Rng {
  const next = createMulberry32(seed);
  let spareNormal: number | null = null;
  const rng: Rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)];
    },
    weighted: (entries) => {
      let total = 0;
      for (const [, weight] of entries) total += weight;
      let roll = next() * total;
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0) return value;
      }
      return entries[entries.length - 1][0];
    },
    chance: (probability) => next() < probability,
    normal: (mean, sd) => {
      // Box–Muller yields two deviates per pair of uniforms; keep the second for the next call.
      if (spareNormal !== null) {
        const z = spareNormal;
        spareNormal = null;
        return mean + sd * z;
      }
      const u = 1 - next();
      const v = next();
      const radius = Math.sqrt(-2 * Math.log(u));
      spareNormal = radius * Math.sin(2 * Math.PI * v);
      return mean + sd * radius * Math.cos(2 * Math.PI * v);
    },
    sample: (items, k) => {
      const copy = items.slice();
      const count = Math.min(k, copy.length);
      for (let i = 0; i < count; i++) {
        const j = i + Math.floor(next() * (copy.length - i));
        [copy[i], copy[j]] = [copy[j], copy[i]];
      }
      return copy.slice(0, count);
    },
    fork: () => createRng(Math.floor(next() * 4294967296)),
  };
  return rng;
}
