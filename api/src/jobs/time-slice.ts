/**
 * Long work in a background job gives the event loop a turn every few milliseconds, so requests
 * that arrive meanwhile are answered between its steps instead of after all of them (issue 22:
 * the triage job scored 200 patients in one synchronous loop while readings arrived, and the
 * readings' p99 rose with it). `pause()` answers a promise that resolves on the next turn once
 * `sliceMs` of work went by since the last turn, and undefined otherwise (await undefined costs
 * a microtask, not a turn).
 */
export function timeSlicer(sliceMs: number, clock: () => number = () => performance.now()): { pause(): Promise<void> | undefined } {
  let since = clock();
  return {
    pause() {
      if (clock() - since < sliceMs) return undefined;
      return new Promise<void>((resolve) =>
        setImmediate(() => {
          since = clock();
          resolve();
        }),
      );
    },
  };
}
