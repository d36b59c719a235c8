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

/**
 * The features playwright-core 1.65 turns off (its chromiumSwitches), which a second
 * --disable-features would otherwise replace: Chromium keeps only the last one
 * (chromium.test.ts holds this list to what playwright-core passes).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156's headless browser builds the address bar's suggestion popup as a web page of its
 * own (chrome://omnibox-popup.top-chrome, with its 'AI mode' variant) for every window: a renderer
 * process per browser context that compiles ~400 modules and took 1.1-1.5 s of CPU on each
 * context a test or the benchmark opened, against 0.1-0.3 s for the page under test. Nothing here
 * types in an address bar: the popup is turned off.
 */
export const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];
const DISABLE_FEATURES = `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`;
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
    args: [...ARGS, DISABLE_FEATURES, ...(roomy ? [] : [SHM_FLAG]), ...extraArgs],
    ignoreDefaultArgs: roomy ? [SHM_FLAG] : [],
  };
}
