/**
 * Issue 50: the portal's time to its first readings on a patient's phone. From navigation start on
 * /portal_patient (a signed-in patient, as the sign-in leaves the session; cold cache, a new browser
 * context each time) until 'Mis últimas mediciones' shows its first reading, at 390 × 844, on
 * DevTools' 'Slow 3G' profile (Network.emulateNetworkConditions) beside the same with no throttling.
 */
import type { Browser } from 'playwright-core';

export interface PortalReadingsResult {
  patientId: number;
  fastMs: number;
  slow3gMs: number;
}

/** DevTools' 'Slow 3G' preset: 400 kbit/s each way (500 × 0.8), 2 s of latency (400 ms × 5). */
const SLOW_3G = { offline: false, latency: 2_000, downloadThroughput: 50_000, uploadThroughput: 50_000 };

async function call<T>(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The patient's own session, through the portal's sign-in (the code read from the API's SMS outbox). */
async function patientSession(baseUrl: string, staffToken: string, patientId: number): Promise<{ token: string; patient_id: number }> {
  const patient = await call<{ nid: string; cellphone: string | null }>(baseUrl, 'GET', `/patients/${patientId}`, undefined, staffToken);
  if (!patient.cellphone) throw new Error(`patient ${patientId} has no cellphone for the portal's code`);
  const outbox = (to: string) => call<Array<{ id: number; body: string }>>(baseUrl, 'GET', `/sms_outbox?to=${to}`, undefined, staffToken);
  const [before] = await outbox(patient.cellphone);
  const { challenge_id } = await call<{ challenge_id: string }>(baseUrl, 'POST', '/request_otp', { nid: patient.nid });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [sms] = await outbox(patient.cellphone);
    const code = sms && sms.id !== before?.id ? /\d{4,8}/.exec(sms.body)?.[0] : undefined;
    if (code) {
      const answer = await call<{ token: string; id: number }>(baseUrl, 'POST', '/verify_otp', {
        nid: patient.nid,
        otp_code: code,
        challenge_id,
      });
      return { token: answer.token, patient_id: answer.id };
    }
    if (Date.now() > deadline) throw new Error(`no code sent to patient ${patientId}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function timeFirstReadings(browser: Browser, baseUrl: string, session: string, throttle: boolean): Promise<number> {
  const context = await browser.newContext({ locale: 'es-CO', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    await context.addInitScript({ content: `localStorage.setItem('vigia.patient', ${JSON.stringify(session)});` });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    if (throttle) await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
    await page.goto(`${baseUrl}/portal_patient`, { waitUntil: 'commit', timeout: 120_000 });
    await page.locator('.latest__item').first().waitFor({ state: 'visible', timeout: 180_000 });
    return await page.evaluate(() => performance.now());
  } finally {
    await context.close();
  }
}

export async function measurePortalReadings(
  browser: Browser,
  opts: { baseUrl: string; staffToken: string; patientId: number; log: (line: string) => void },
): Promise<PortalReadingsResult> {
  const session = JSON.stringify(await patientSession(opts.baseUrl, opts.staffToken, opts.patientId));
  const fastMs = await timeFirstReadings(browser, opts.baseUrl, session, false);
  const slow3gMs = await timeFirstReadings(browser, opts.baseUrl, session, true);
  opts.log(
    `  portal, primeras mediciones en el teléfono: ${slow3gMs.toFixed(0)} ms en 3G lenta, ${fastMs.toFixed(0)} ms sin limitar (caché fría)`,
  );
  return { patientId: opts.patientId, fastMs, slow3gMs };
}
