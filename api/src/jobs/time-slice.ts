/**
 * Long work in a background job gives the event loop a turn every few milliseconds, so requests
 * that arrive meanwhile are answered between its steps instead of after all of them (issue 22:
 * the triage job scored 200 patients in one synchronous loop while readings arrived, and the
 * readings' p99 rose with it). `pause()` answers a promise that resolves on the next turn once
 * `sliceMs` went by since the last turn, and undefined otherwise (await undefined costs a
 * microtask, not a turn).
 *
 * With a `share` under 1, the turn also lasts long enough for the work to hold at most that share
 * of the time: after w ms of work, w × (1 / share − 1) ms for everything else. Turns alone did not
 * keep a job from crowding out requests: on PostgreSQL, a refresh of 3,334 patients during 500
 * readings/s took the main thread's last spare quarter for 9 s, and requests queued for 3 s.
 */
export function timeSlicer(sliceMs: number, opts: { clock?: () => number; share?: number } = {}): { pause(): Promise<void> | undefined } {
  const clock = opts.clock ?? (() => performance.now());
  const share = opts.share ?? 1;
  let since = clock();
  return {
    pause() {
      const worked = clock() - since;
      if (worked < sliceMs) return undefined;
      const rest = share < 1 ? worked * (1 / share - 1) : 0;
      return new Promise<void>((resolve) => {
        const resume = () => {
          since = clock();
          resolve();
        };
        if (rest > 0) setTimeout(resume, rest);
        else setImmediate(resume);
      });
    },
  };
}
