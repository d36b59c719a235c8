import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execute, select } from '../../api/src/db/sql';
import { createJobRunner } from '../../api/src/jobs/queue';
import { createMessagingChannel } from '../../api/src/adapters/messaging';
import { createEmailSender } from '../../api/src/adapters/email';
import { NOTIFICATION_JOB_KINDS, registerNotificationJobs } from '../../api/src/modules/notifications/notifications.jobs';
import { conversationOpen, notificationChannels } from '../../api/src/modules/notifications/notifications.channels';
import { createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { startFakeProvider, type FakeProvider } from '../support/messaging-peers';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer';
import { bootOn, freshDatabase, type FaultDatabase } from './support';

/**
 * Issue 41: a mail server that holds a message 30 s and a WhatsApp provider that holds one 90 s,
 * both real servers on loopback, the product on the real clock with its own timeouts and its job
 * poller. Each message arrives once, and the messages to everyone else arrive on time. Then, with
 * timeouts shortened below the peers' hold, a try whose outcome is unknown is recorded as such and
 * retried with the same Message-ID / idempotency key, which the peers recognise.
 */

const SMTP_HOLD_MS = 30_000;
const WHATSAPP_HOLD_MS = 90_000;
/** 'On time': the product's own poll and gathering, far below either hold. */
const ON_TIME_MS = 8_000;
const MEDICO_PHONE = '573001110002';
const NURSE_PHONE = '573001110003';

let db: FaultDatabase;
let t: TestProduct;
let org: Org;
let smtp: SmtpPeer;
let provider: FakeProvider;
let stopJobs: (() => Promise<void>) | null = null;
let ruleId: number;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(ok: () => boolean | Promise<boolean>, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return true;
    await sleep(100);
  }
  return ok();
}

beforeAll(async () => {
  smtp = await startSmtpPeer();
  provider = await startFakeProvider();
  Object.assign(process.env, {
    MESSAGING_URL: provider.url,
    MESSAGING_TOKEN: 'proveedor-token',
    MESSAGING_WEBHOOK_SECRET: 'secreto',
    SMTP_URL: smtp.url,
    SMTP_FROM: 'Vigía <alertas@vigia.example.co>',
  });
  db = await freshDatabase();
  t = await bootOn(db);
  org = await createOrg(t, 'Clinica Lenta');
  await execute(t.sequelize, 'UPDATE users SET cellphone = :phone, media_whatsapp = :on WHERE id = :id', {
    phone: MEDICO_PHONE.slice(2),
    on: true,
    id: org.users.medico.id,
  });
  await execute(t.sequelize, 'UPDATE users SET cellphone = :phone, media_whatsapp = :on WHERE id = :id', {
    phone: NURSE_PHONE.slice(2),
    on: true,
    id: org.users.enfermeria.id,
  });
  ruleId = (
    await t.http
      .post('/api/v1/alarms')
      .set(bearer(org.tokens.admin))
      .send({ name: 'Hipertensión', clinical_element: 3, priority: 1, minimum_condition: 90, maximum_condition: 140 })
  ).body.id;
}, 60_000);

afterAll(async () => {
  await stopJobs?.();
  await t?.stop();
  await smtp?.close();
  await provider?.close();
  await db?.drop();
  for (const k of ['MESSAGING_URL', 'MESSAGING_TOKEN', 'MESSAGING_WEBHOOK_SECRET', 'SMTP_URL', 'SMTP_FROM']) delete process.env[k];
});

async function highAlert(): Promise<number> {
  const p = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body as { id: number };
  await t.http
    .put(`/api/v1/patients/${p.id}`)
    .set(bearer(org.tokens.admin))
    .send({ alarm_ids: [ruleId] });
  const res = await t.http
    .post(`/api/v1/patients/${p.id}/measurements`)
    .set(bearer(org.tokens.enfermeria))
    .send({ systolic: 190, diastolic: 80, when: new Date().toISOString() });
  expect(res.status).toBe(201);
  const [alert] = await select<{ id: number }>(t.sequelize, 'SELECT id FROM alerts WHERE patient_id = :id', { id: p.id });
  return Number(alert.id);
}

interface Row {
  id: number;
  channel: string;
  recipient: string;
  state: string;
  attempts: number;
  error: string | null;
}
const rowsOf = (alertId: number) =>
  select<Row>(
    t.sequelize,
    'SELECT id, channel, recipient, state, attempts, error FROM notifications WHERE alert_id = :alertId ORDER BY id',
    {
      alertId,
    },
  );

describe('notifications with slow peers (issue 41)', () => {
  it('a mail server that holds 30 s and a provider that holds 90 s: each message once, everyone else on time', async () => {
    const held = { mail: org.users.admin.email, phone: MEDICO_PHONE };
    // Only the first message to each held recipient is held: the peers are slow once, not forever.
    let mailHeld = false;
    let phoneHeld = false;
    smtp.holdMs = (m) => (m.to.includes(held.mail) && !mailHeld ? ((mailHeld = true), SMTP_HOLD_MS) : 0);
    provider.holdMs = (b) => (b.to === held.phone && !phoneHeld ? ((phoneHeld = true), WHATSAPP_HOLD_MS) : 0);
    const arrived = new Map<string, number>();
    const watch = setInterval(() => {
      for (const m of smtp.received) for (const to of m.to) if (!arrived.has(to)) arrived.set(to, Date.now());
      for (const s of provider.sent) if (!arrived.has(s.body.to)) arrived.set(s.body.to, Date.now());
    }, 50);
    stopJobs = t.jobs.start(100);
    try {
      const raisedAt = Date.now();
      const alertId = await highAlert();
      const others = [org.users.medico.email, org.users.enfermeria.email, org.users.consulta.email, NURSE_PHONE];
      // Everyone but the two held recipients hears of it at once, while the two sends hang.
      expect(await until(() => others.every((o) => arrived.has(o)), ON_TIME_MS)).toBe(true);
      for (const o of others) expect(arrived.get(o)! - raisedAt).toBeLessThan(ON_TIME_MS);
      expect(arrived.has(held.mail) || arrived.has(held.phone)).toBe(false);

      // The held ones are delivered once each, when their peer answers; nothing is sent twice.
      expect(await until(async () => (await rowsOf(alertId)).every((r) => r.state === 'sent'), WHATSAPP_HOLD_MS + 20_000)).toBe(true);
      // (the watcher looks every 50 ms)
      expect(await until(() => arrived.has(held.mail) && arrived.has(held.phone), 1_000)).toBe(true);
      expect(arrived.get(held.mail)! - raisedAt).toBeGreaterThanOrEqual(SMTP_HOLD_MS);
      expect(arrived.get(held.phone)! - raisedAt).toBeGreaterThanOrEqual(WHATSAPP_HOLD_MS);
      const rows = await rowsOf(alertId);
      const expected = [
        ...[org.users.admin.email, org.users.medico.email, org.users.enfermeria.email, org.users.consulta.email].map((e) => `email ${e}`),
        `whatsapp ${MEDICO_PHONE}`,
        `whatsapp ${NURSE_PHONE}`,
      ];
      expect(rows.map((r) => `${r.channel} ${r.recipient}`).sort()).toEqual(expected.sort());
      for (const r of rows) expect([r.state, Number(r.attempts)]).toEqual(['sent', 1]);
      // Each message reached its peer once, under its stable id.
      expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(
        rows
          .filter((r) => r.channel === 'email')
          .map((r) => r.recipient)
          .sort(),
      );
      expect(smtp.received.map((m) => m.messageId).sort()).toEqual(
        rows
          .filter((r) => r.channel === 'email')
          .map((r) => `<notif-${r.id}@vigia.example.co>`)
          .sort(),
      );
      expect(provider.sent.map((s) => s.body.to).sort()).toEqual([MEDICO_PHONE, NURSE_PHONE]);
      expect(provider.sent.map((s) => s.body.biz_opaque_callback_data).sort()).toEqual(
        rows
          .filter((r) => r.channel === 'whatsapp')
          .map((r) => `notif-${r.id}`)
          .sort(),
      );
      expect(smtp.duplicates).toEqual([]);
      expect(provider.duplicates).toEqual([]);
    } finally {
      clearInterval(watch);
      await stopJobs();
      stopJobs = null;
    }
  }, 180_000);

  it('a try whose outcome is unknown is recorded as such and retried with the same key, which the peer recognises', async () => {
    // Another process's runner whose adapters give up after 1.5 s, on an injected clock so the
    // retry's back-off needs no waiting; the peers hold every message 3 s, then accept it.
    let clock = new Date(0);
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => clock, log: () => undefined });
    registerNotificationJobs({
      sequelize: t.sequelize,
      jobs: runner,
      now: () => clock,
      log: () => undefined,
      channels: notificationChannels({
        conversationOpen: conversationOpen(t.sequelize, () => clock),
        whatsapp: createMessagingChannel({ url: provider.url, token: 'proveedor-token', webhookSecret: null, timeoutMs: 1_500 }),
        email: createEmailSender({
          sequelize: t.sequelize,
          config: { url: smtp.url, from: 'Vigía <alertas@vigia.example.co>', stageTimeoutMs: 1_500 },
          now: () => clock,
        }),
      }),
      baseUrl: null,
    });
    smtp.holdMs = () => 3_000;
    provider.holdMs = () => 3_000;
    const mailBefore = smtp.received.length;
    const sentBefore = provider.sent.length;
    const alertId = await highAlert();
    // The alert's jobs were queued on the product's real clock.
    clock = new Date();
    await runner.drain({ now: clock, kinds: NOTIFICATION_JOB_KINDS });
    let rows = await rowsOf(alertId);
    expect(rows).toHaveLength(6);
    for (const r of rows)
      expect(r).toMatchObject({
        state: 'queued',
        error: 'Resultado desconocido: el proveedor no respondió a tiempo; se reintentará con la misma clave.',
      });
    // The peers had in fact accepted each message.
    expect(await until(() => smtp.received.length === mailBefore + 4 && provider.sent.length === sentBefore + 2, 5_000)).toBe(true);

    smtp.holdMs = () => 0;
    provider.holdMs = () => 0;
    clock = new Date(clock.getTime() + 10 * 60_000);
    await runner.drain({ now: clock, kinds: NOTIFICATION_JOB_KINDS });
    rows = await rowsOf(alertId);
    for (const r of rows) expect([r.state, r.error, Number(r.attempts)]).toEqual(['sent', null, 2]);
    // Sent again under the same id, recognised, kept once.
    expect(smtp.received.length).toBe(mailBefore + 4);
    expect(provider.sent.length).toBe(sentBefore + 2);
    expect(smtp.duplicates.map((m) => m.messageId).sort()).toEqual(
      rows
        .filter((r) => r.channel === 'email')
        .map((r) => `<notif-${r.id}@vigia.example.co>`)
        .sort(),
    );
    expect(provider.duplicates.map((d) => d.key).sort()).toEqual(
      rows
        .filter((r) => r.channel === 'whatsapp')
        .map((r) => `notif-${r.id}`)
        .sort(),
    );
  }, 60_000);
});
