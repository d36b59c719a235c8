/**
 * Background work that runs in the API's own process gives way to the requests it serves (issue 37
 * for the Bulk export, issue 51 for the RDA backlog): after a step of work that took `workMs`, if the
 * process received more than `busyRequests` requests meanwhile at more than `busyRate` a second, it
 * pauses `factor` times as long as the step took (at most `maxPauseMs`), so it holds at most
 * 1 / (factor + 1) of the time while readings and screens are being served; otherwise it runs flat
 * out. A client polling its own work's status is not traffic to give way to.
 */
export interface GiveWay {
  busyRequests: number;
  busyRate: number;
  factor: number;
  maxPauseMs: number;
}

/**
 * The pause after a step that took `workMs`, given how many requests the process received over the
 * last `overMs` (by default the step itself). A step much shorter than the gap between two requests
 * sees none of them however busy the process is: the RDA sender, whose sends take a few
 * milliseconds, counts over the last second instead (http/traffic.ts recentRequests).
 */
export function giveWayPause(workMs: number, requestsMeanwhile: number, w: GiveWay, overMs = workMs): number {
  if (!(workMs > 0) || !(overMs > 0) || requestsMeanwhile <= w.busyRequests || (requestsMeanwhile * 1000) / overMs <= w.busyRate) return 0;
  return Math.min(w.maxPauseMs, Math.round(workMs * w.factor));
}
