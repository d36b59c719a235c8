import { describe, expect, it } from 'vitest';
import { giveWayPause } from '../../jobs/give-way.rules';
import { RDA_GIVE_WAY } from './rdas.rules';

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
});
