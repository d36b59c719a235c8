/**
 * How the loopback peers keep a message before answering (a slow provider or MTA, issue 41): `hold`
 * waits, and `release` clears every wait still pending when the peer closes, so no timer outlives
 * the test.
 */
export function createHolds() {
  const timers = new Set<NodeJS.Timeout>();
  return {
    hold: (ms: number) =>
      new Promise<void>((resolve) => {
        if (ms <= 0) return resolve();
        const timer = setTimeout(() => (timers.delete(timer), resolve()), ms);
        timers.add(timer);
      }),
    release: () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
