import { describe, expect, it } from 'vitest';
import { giveWayPause } from '../../jobs/give-way.rules';
import { RDA_GIVE_WAY, RDA_GIVE_WAY_WINDOW_MS, rdaSendPause } from './rdas.rules';

describe('giveWayPause: background work gives way to requests (the RDA backlog’s settings)', () => {
  it.each([
    // work ms, requests meanwhile, pause ms
    [20, 0, 0],
    // a client polling the status of its documents is not traffic to give way to
    [20, 2, 0],
    // readings at 200 a second during a 20 ms send: four of them
    [20, 4, 980],
    [20, 40, 980],
    [150, 40, 5000],
    // 20 a second during slow sends is not either
    [200, 3, 0],
    [0, 5, 0],
    [Number.NaN, 5, 0],
    [-3, 5, 0],
  ])('%s ms of work with %s requests meanwhile: pause %s ms', (workMs, requests, pause) => {
    expect(giveWayPause(workMs, requests, RDA_GIVE_WAY)).toBe(pause);
  });

  it.each([
    // work ms, requests over the window, window ms, pause ms
    // a 5 ms send at 200 readings a second: one reading during it, 200 over the last second
    [5, 200, RDA_GIVE_WAY_WINDOW_MS, 245],
    [5, 1, 5, 0],
    // a status poll a second is not traffic to give way to
    [5, 1, RDA_GIVE_WAY_WINDOW_MS, 0],
    // screens at 40 a second are not either
    [5, 40, RDA_GIVE_WAY_WINDOW_MS, 0],
    [5, 60, RDA_GIVE_WAY_WINDOW_MS, 245],
    // the first send: nothing counted yet
    [5, 0, 0, 0],
    [120, 200, RDA_GIVE_WAY_WINDOW_MS, 5000],
  ])('%s ms of work, %s requests over the last %s ms: pause %s ms', (workMs, requests, overMs, pause) => {
    expect(giveWayPause(workMs, requests, RDA_GIVE_WAY, overMs)).toBe(pause);
  });

  it.each([
    // work ms, requests during the send, requests over the window, window ms, pause ms
    // a 5 ms send at 200 readings a second: one during it, 200 over the last second
    [5, 1, 200, 1000, 245],
    // a slow send sees the readings itself, before half a second has been counted
    [150, 30, 30, 150, 5000],
    // a burst of requests over less than half a second is not a busy process
    [5, 0, 40, 200, 0],
    [5, 0, 300, 499, 0],
    [5, 0, 300, 500, 245],
    // quiet
    [5, 0, 3, 1000, 0],
  ])('rdaSendPause: %s ms send, %s during, %s over %s ms: pause %s ms', (workMs, during, requests, overMs, pause) => {
    expect(rdaSendPause(workMs, during, { requests, overMs })).toBe(pause);
  });
});
