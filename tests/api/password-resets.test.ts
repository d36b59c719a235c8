import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { startTestProduct, createOrg, bearer, PASSWORD, type TestProduct, type Org } from '../support/product';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer';
import { execute, select } from '../../api/src/db/sql';
import { SSO_REQUIRED_MESSAGE } from '@vigia/contract/rules/sign-in';

const PUBLIC_URL = 'https://vigia.example.co';
const NEW_PASSWORD = 'Nueva@Clave2026';
const MINUTE = 60_000;
let clock = new Date('2026-04-06T14:00:00Z');
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
let smtp: SmtpPeer;
let t: TestProduct;
let org: Org;
/** Each test asks from its own address, so the per-address limit of one test never answers another's. */
let address = 0;
let ip = '';
beforeEach(() => {
  ip = `198.51.100.${++address}`;
});

beforeAll(async () => {
  smtp = await startSmtpPeer();
  Object.assign(process.env, { SMTP_URL: smtp.url, SMTP_FROM: 'Vigía <cuentas@vigia.example.co>', PUBLIC_URL });
  for (const k of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URI']) delete process.env[k];
  t = await startTestProduct({ now: () => clock });
  org = await createOrg(t, 'Clinica Claves');
});
afterAll(async () => {
  await t.stop();
  await smtp.close();
  for (const k of ['SMTP_URL', 'SMTP_FROM', 'PUBLIC_URL']) delete process.env[k];
});

const ask = (email: string) => t.http.post('/api/v1/password_resets').set('X-Forwarded-For', ip).send({ email });
const setPassword = (token: string, password = NEW_PASSWORD, confirmation = password) =>
  t.http.put(`/api/v1/password_resets/${token}`).set('X-Forwarded-For', ip).send({ password, password_confirmation: confirmation });
const signIn = (email: string, password: string) => t.http.post('/api/v1/sessions').set('X-Forwarded-For', ip).send({ email, password });
const drain = () => t.jobs.drain({ now: clock });
const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));
/** The token of the link in the last e-mail that reached `email`. */
function linkToken(email: string): string {
  const mail = mailsTo(email).at(-1);
  const m = mail?.text.match(/https:\/\/vigia\.example\.co\/password_resets#([A-Za-z0-9_-]{43})\b/);
  if (!m) throw new Error(`no reset link in ${JSON.stringify(mail)}`);
  return m[1];
}
/** A fresh user of the organisation, signed in once (their session is what a reset must end). */
let nextUser = 0;
async function newUser(): Promise<{ id: number; email: string; token: string }> {
  const email = `persona${++nextUser}@clinicaclaves.test`;
  const res = await t.http.post('/api/v1/users').set(bearer(org.tokens.admin)).send({
    first_name: 'Lucía',
    last_name: 'Gómez',
    email,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    cellphone: '3001234567',
    prefix: '+57',
    country_id: 26,
    city_id: 2611001,
    role_name: 'enfermeria',
  });
  expect(res.status).toBe(201);
  const login = await signIn(email, PASSWORD);
  expect(login.status).toBe(201);
  return { id: res.body.id, email, token: login.body.token };
}
async function eventsOf(userId: number, action: string) {
  // The trail's writer groups events for up to 100 ms.
  for (let i = 0; i < 50; i++) {
    const rows = await select<{ summary: string; ip: string | null; client_id: number }>(
      t.sequelize,
      'SELECT summary, ip, client_id FROM audit_events WHERE user_id = :userId AND action = :action ORDER BY id',
      { userId, action },
    );
    if (rows.length) return rows;
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
}

describe('POST /api/v1/password_resets', () => {
  it('answers the same 200 and message for an existing, an unknown and a disabled account, and only queues a job', async () => {
    const active = await newUser();
    const disabled = await newUser();
    await execute(t.sequelize, 'UPDATE users SET status = 1 WHERE id = :id', { id: disabled.id });
    const jobsBefore = (await select<{ n: number }>(t.sequelize, "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'password_resets.send'"))[0]
      .n;
    const answers = [];
    for (const email of [active.email, 'nadie@clinicaclaves.test', disabled.email]) answers.push(await ask(email));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual(answers[0].body);
    }
    expect(answers[0].body.message).toMatch(/^Si el correo corresponde a una cuenta activa/);
    // Nothing is looked up or written for the answer beyond the job: the same work for all three.
    const jobsAfter = (await select<{ n: number }>(t.sequelize, "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'password_resets.send'"))[0].n;
    expect(Number(jobsAfter) - Number(jobsBefore)).toBe(3);
    expect(await select(t.sequelize, 'SELECT id FROM password_resets WHERE user_id IN (:ids)', { ids: [active.id, disabled.id] })).toEqual(
      [],
    );
    const sentBefore = smtp.received.length;
    await drain();
    expect(smtp.received.slice(sentBefore).map((m) => m.to)).toEqual([[active.email]]);
  });

  it('sends a link that sets a new password once, ends every session and is stored only as its SHA-256', async () => {
    const u = await newUser();
    const second = (await signIn(u.email, PASSWORD)).body.token as string;
    expect((await ask(u.email)).status).toBe(200);
    await drain();
    const mail = mailsTo(u.email).at(-1)!;
    expect(mail.subject).toBe('Vigía: restablezca su contraseña');
    expect(mail.from).toContain('cuentas@vigia.example.co');
    expect(mail.text).toContain('Hola, Lucía:');
    expect(mail.text).toContain('en los próximos 30 minutos');
    const token = linkToken(u.email);
    const stored = await select<{ token_hash: string; expires_at: string }>(
      t.sequelize,
      'SELECT token_hash, expires_at FROM password_resets WHERE user_id = :id',
      {
        id: u.id,
      },
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await select(t.sequelize, 'SELECT * FROM password_resets'))).not.toContain(token);
    expect(new Date(stored[0].expires_at).getTime() - clock.getTime()).toBe(30 * MINUTE);

    const done = await setPassword(token);
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('Su contraseña fue cambiada. Inicie sesión con la contraseña nueva.');
    // Every session of the user ended: their tokens are told why.
    for (const old of [u.token, second]) {
      const me = await t.http.get('/api/v1/me').set(bearer(old));
      expect(me.status).toBe(401);
      expect(me.body).toMatchObject({
        code: 'session_ended',
        message: expect.stringMatching(/^Su sesión fue cerrada porque se cambió la contraseña/),
      });
    }
    expect((await signIn(u.email, PASSWORD)).status).toBe(401);
    expect((await signIn(u.email, NEW_PASSWORD)).status).toBe(201);
    // The owner is told the password changed (a reset they did not make shows at once).
    await drain();
    const notice = mailsTo(u.email).at(-1)!;
    expect(notice.subject).toBe('Vigía: su contraseña fue cambiada');
    expect(notice.text).toContain('Si no fue usted, comuníquese de inmediato con el administrador');
    expect(notice.text).not.toMatch(/password_resets/);
    // Usable once.
    const again = await setPassword(token, 'Otra@Clave2026');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'reset_invalid', field: 'token', message: expect.stringMatching(/^Este enlace ya se usó/) });
    expect((await signIn(u.email, NEW_PASSWORD)).status).toBe(201);

    const asked = await eventsOf(u.id, 'password_reset_requested');
    expect(asked).toEqual([
      expect.objectContaining({ summary: 'Pidió un enlace para restablecer su contraseña', ip, client_id: org.clientId }),
    ]);
    expect(await eventsOf(u.id, 'password_reset')).toHaveLength(1);
    expect((await eventsOf(u.id, 'token_refused')).length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an expired link after 30 minutes and changes nothing', async () => {
    const u = await newUser();
    await ask(u.email);
    await drain();
    const token = linkToken(u.email);
    later(30 * MINUTE);
    const res = await setPassword(token);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'reset_invalid', message: 'Este enlace venció (dura 30 minutos). Solicite uno nuevo.' });
    expect((await signIn(u.email, PASSWORD)).status).toBe(201);
  });

  it('voids a link when a newer one is asked for', async () => {
    const u = await newUser();
    await ask(u.email);
    await drain();
    const first = linkToken(u.email);
    await ask(u.email);
    await drain();
    const second = linkToken(u.email);
    expect(second).not.toBe(first);
    const old = await setPassword(first);
    expect(old.status).toBe(400);
    expect(old.body.message).toMatch(/^Este enlace fue reemplazado por uno más reciente/);
    expect((await setPassword(second)).status).toBe(200);
  });

  it('refuses a tampered or malformed token with 400 in Spanish', async () => {
    const u = await newUser();
    await ask(u.email);
    await drain();
    const token = linkToken(u.email);
    const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const tampered = await setPassword(flipped);
    expect(tampered.status).toBe(400);
    expect(tampered.body).toMatchObject({
      code: 'reset_invalid',
      message: 'El enlace para restablecer la contraseña no es válido. Solicite uno nuevo.',
    });
    for (const bad of ['corto', `${token}x`, `${token.slice(0, 42)}!`]) {
      const res = await setPassword(encodeURIComponent(bad));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('El enlace para restablecer la contraseña no es válido. Solicite uno nuevo.');
    }
    // The real link still works: the refusals changed nothing.
    expect((await setPassword(token)).status).toBe(200);
  });

  it('holds the new password to the specification rule and its confirmation, keeping the link usable', async () => {
    const u = await newUser();
    await ask(u.email);
    await drain();
    const token = linkToken(u.email);
    const weak = await setPassword(token, 'sinmayusculas1@');
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({
      field: 'password',
      message: expect.stringMatching(/^La contraseña debe contener al menos una letra mayúscula/),
    });
    const mismatch = await setPassword(token, NEW_PASSWORD, 'Distinta@2026');
    expect(mismatch.body).toMatchObject({ field: 'password_confirmation', message: 'las contraseñas no coinciden' });
    const short = await setPassword(token, 'Ab@1');
    expect(short.status).toBe(400);
    expect(short.body.field).toBe('password');
    expect((await signIn(u.email, PASSWORD)).status).toBe(201);
    expect((await setPassword(token)).status).toBe(200);
  });

  it('answers 400 naming the field for a malformed e-mail', async () => {
    const res = await t.http.post('/api/v1/password_resets').send({ email: 'no-es-correo' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'email', message: '¡El formato de correo no es válido!' });
  });

  it('limits requests per e-mail and per address with a Spanish 429, the same for unknown e-mails', async () => {
    for (const email of ['limite@clinicaclaves.test', 'nadie.limite@clinicaclaves.test']) {
      for (let i = 0; i < 3; i++) expect((await ask(email)).status).toBe(200);
      ip = `198.51.100.${++address}`;
      const fourth = await ask(email);
      expect(fourth.status).toBe(429);
      expect(fourth.body.message).toBe('Demasiadas solicitudes para restablecer la contraseña. Espere unos minutos e intente de nuevo.');
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    }
    ip = `198.51.100.${++address}`;
    for (let i = 0; i < 10; i++) expect((await ask(`lista${i}@clinicaclaves.test`)).status).toBe(200);
    expect((await ask('lista10@clinicaclaves.test')).status).toBe(429);
    later(15 * MINUTE);
    expect((await ask('lista10@clinicaclaves.test')).status).toBe(200);
  });
});

describe('password recovery where staff sign in through a single sign-on provider', () => {
  let sso: TestProduct;
  let ssoOrg: Org;
  beforeAll(async () => {
    Object.assign(process.env, {
      OIDC_ISSUER: 'https://idp.example.co',
      OIDC_CLIENT_ID: 'vigia',
      OIDC_CLIENT_SECRET: 'secreto',
      OIDC_REDIRECT_URI: `${PUBLIC_URL}/sso/callback`,
    });
    sso = await startTestProduct({ now: () => clock });
    for (const k of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URI']) delete process.env[k];
    ssoOrg = await createOrg(sso, 'Clinica Federada', { breakGlass: ['admin'] });
  });
  afterAll(() => sso.stop());
  const askSso = (email: string) => sso.http.post('/api/v1/password_resets').set('X-Forwarded-For', ip).send({ email });

  it('answers as for anyone, and tells the user by e-mail to use their provider, with no link', async () => {
    const email = ssoOrg.users.medico.email;
    const res = await sso.http.post('/api/v1/password_resets').send({ email });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^Si el correo corresponde a una cuenta activa/);
    await sso.jobs.drain({ now: clock });
    const mail = smtp.received.filter((m) => m.to.includes(email)).at(-1)!;
    expect(mail.subject).toBe('Vigía: su institución ingresa con inicio de sesión único');
    expect(mail.text).toContain(`${PUBLIC_URL}/login`);
    expect(mail.text).not.toMatch(/password_resets/);
    expect(await select(sso.sequelize, 'SELECT id FROM password_resets')).toEqual([]);
  });

  it('sends a break-glass account the real recovery link, and its new password signs in (issue 49)', async () => {
    const email = ssoOrg.users.admin.email;
    expect((await askSso(email)).status).toBe(200);
    await sso.jobs.drain({ now: clock });
    const token = linkToken(email);
    const set = await sso.http
      .put(`/api/v1/password_resets/${token}`)
      .send({ password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(set.status).toBe(200);
    expect((await sso.http.post('/api/v1/sessions').send({ email, password: NEW_PASSWORD })).status).toBe(201);
  });

  it('refuses a link mailed before the move to single sign-on, for a provider user, and spends it (issue 49)', async () => {
    const user = ssoOrg.users.enfermeria;
    // Written as the recovery job wrote it while the organisation still used passwords.
    const token = crypto.randomBytes(32).toString('base64url');
    await execute(
      sso.sequelize,
      `INSERT INTO password_resets (user_id, client_id, token_hash, expires_at, ip, created_at)
       VALUES (:userId, :clientId, :hash, :expires, NULL, :now)`,
      {
        userId: user.id,
        clientId: ssoOrg.clientId,
        hash: crypto.createHash('sha256').update(token).digest('hex'),
        expires: new Date(clock.getTime() + 10 * MINUTE),
        now: clock,
      },
    );
    const set = await sso.http
      .put(`/api/v1/password_resets/${token}`)
      .send({ password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(set.status).toBe(403);
    expect(set.body).toMatchObject({ code: 'sso_required', message: SSO_REQUIRED_MESSAGE });
    const [row] = await select<{ used_at: unknown; voided_at: unknown }>(
      sso.sequelize,
      'SELECT used_at, voided_at FROM password_resets WHERE user_id = :id',
      { id: user.id },
    );
    expect(row.used_at).toBeNull();
    expect(row.voided_at).not.toBeNull();
    // The old password is what it was: the break-glass administrator's link still works (above).
    const again = await sso.http
      .put(`/api/v1/password_resets/${token}`)
      .send({ password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(again.status).toBe(400);
  });

  it('answers byte for byte the same for a provider user, a break-glass account and an unknown e-mail (issue 49)', async () => {
    const answers = [];
    for (const email of [ssoOrg.users.enfermeria.email, ssoOrg.users.admin.email, 'nadie@clinicafederada.test'])
      answers.push(await askSso(email));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).toBe(answers[0].text);
      expect(a.headers['content-type']).toBe(answers[0].headers['content-type']);
      expect(a.headers['content-length']).toBe(answers[0].headers['content-length']);
    }
    const before = smtp.received.length;
    await sso.jobs.drain({ now: clock });
    const sent = smtp.received.slice(before);
    // The provider's user is told to use the provider, with no link; only the break-glass account gets one.
    expect(sent.find((m) => m.to.includes(ssoOrg.users.enfermeria.email))!.text).not.toMatch(/password_resets/);
    expect(sent.find((m) => m.to.includes(ssoOrg.users.admin.email) && /restablezca/.test(m.subject))!.text).toMatch(/password_resets#/);
  });
});

describe('the recovery link without PUBLIC_URL (issue 49)', () => {
  let bare: TestProduct;
  let bareOrg: Org;
  beforeAll(async () => {
    delete process.env.PUBLIC_URL;
    bare = await startTestProduct({ now: () => clock });
    process.env.PUBLIC_URL = PUBLIC_URL;
    bareOrg = await createOrg(bare, 'Clinica Sin Direccion');
  });
  afterAll(() => bare.stop());
  const lastText = (email: string) => smtp.received.filter((m) => m.to.includes(email)).at(-1)!.text;

  it("is built from the request's own origin, a link a mail client can open", async () => {
    const email = bareOrg.users.medico.email;
    const res = await bare.http.post('/api/v1/password_resets').set('X-Forwarded-For', ip).send({ email });
    expect(res.status).toBe(200);
    await bare.jobs.drain({ now: clock });
    expect(lastText(email)).toMatch(/http:\/\/127\.0\.0\.1:\d+\/password_resets#[A-Za-z0-9_-]{43}\b/);
    expect(lastText(email)).not.toMatch(/^\/password_resets/m);
  });

  it('believes X-Forwarded-Proto and X-Forwarded-Host from the proxy on loopback, as trust proxy says', async () => {
    const email = bareOrg.users.enfermeria.email;
    const res = await bare.http
      .post('/api/v1/password_resets')
      .set({ 'X-Forwarded-For': ip, 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'vigia.clinica.test' })
      .send({ email });
    expect(res.status).toBe(200);
    await bare.jobs.drain({ now: clock });
    expect(lastText(email)).toMatch(/https:\/\/vigia\.clinica\.test\/password_resets#[A-Za-z0-9_-]{43}\b/);
  });
});
