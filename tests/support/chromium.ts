import fs from 'node:fs';
import type { LaunchOptions } from 'playwright-core';

/**
 * Debian's Chromium (playwright-core downloads none) as the browser tests and the benchmark start
 * it: headless, no sandbox, no GPU, no background traffic.
 *
 * Its shared memory (the frames, the buffers between its processes) goes to /dev/shm when that has
 * room, instead of files under /tmp: Playwright passes --disable-dev-shm-usage by default, for
 * containers whose /dev/shm is 64 MB, and with it every buffer was a file on the machine's disk
 * (patients.test.ts: 67.6 s with /dev/shm against 70.6 s without, P255). Where /dev/shm is small
 * the flag stays.
 */
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const SHM_FLAG = '--disable-dev-shm-usage';
const SHM_ROOM_BYTES = 1024 ** 3;

function shmRoom(): number {
  try {
    const s = fs.statfsSync('/dev/shm');
    return s.bavail * s.bsize;
  } catch {
    return 0;
  }
}

export function chromiumLaunchOptions(extraArgs: string[] = []): LaunchOptions {
  const roomy = shmRoom() >= SHM_ROOM_BYTES;
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...ARGS, ...(roomy ? [] : [SHM_FLAG]), ...extraArgs],
    ignoreDefaultArgs: roomy ? [SHM_FLAG] : [],
  };
}
