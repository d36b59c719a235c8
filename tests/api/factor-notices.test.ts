import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import otplib from 'otplib';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';
import { startSmtpPeer, type SmtpPeer } from '../support/smtp-peer';

/**
 * Issue 38, ASVS 5.0 6.3.7: a user is told by e-mail, through a real SMTP peer on loopback, of every
 * change to their second factor: the app enrolled or removed, new recovery codes, an administrator's
 * reset. The e-mail is queued in the change's own transaction (a refused change sends nothing).
 */
const { authenticator } = otplib;
let nowMs = Date.parse('2026-11-20T12:00:15Z');
const codeAt = (secret: string) => authenticator.clone({ epoch: nowMs }).generate(secret);
const advance = () => (nowMs += 4 * 30_000);

let smtp: SmtpPeer;
let t: TestProduct;
let org: Org;
beforeAll(async () => {
  smtp = await startSmtpPeer();
  Object.assign(process.env, { SMTP_URL: smtp.url, SMTP_FROM: 'Vigía <cuentas@vigia.example.co>' });
  t = await startTestProduct({ now: () => new Date(nowMs) });
  org = await createOrg(t, 'Clinica Avisos');
});
afterAll(async () => {
  await t.stop();
  await smtp.close();
  for (const k of ['SMTP_URL', 'SMTP_FROM']) delete process.env[k];
});

const drain = () => t.jobs.drain({ now: new Date(nowMs) });
const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));

describe('E-mail notices of a changed second factor', () => {
  it('tells the user of the app enrolled, new recovery codes, the app removed and an administrator’s reset, and of nothing refused', async () => {
    const user = org.users.medico;
    const token = org.tokens.medico;
    const start = await t.http.post('/api/v1/me/factors/totp').set(bearer(token));
    expect(start.status).toBe(200);
    const secret: string = start.body.secret;

    // A wrong first code changes nothing and sends nothing.
    const wrong = await t.http.post('/api/v1/me/factors/totp/confirm').set(bearer(token)).send({ code: '000000' });
    expect(wrong.status).toBe(400);
    await drain();
    expect(mailsTo(user.email)).toEqual([]);

    const confirm = await t.http
      .post('/api/v1/me/factors/totp/confirm')
      .set(bearer(token))
      .send({ code: codeAt(secret) });
    expect(confirm.status).toBe(200);
    await drain();
    const [enrolled] = mailsTo(user.email);
    expect(enrolled.subject).toBe('Vigía: se activó una aplicación de autenticación');
    expect(enrolled.text).toContain(`Se inscribió una aplicación de autenticación en su cuenta de Vigía (${user.email}) el 20/11/2026`);
    // Neither the key nor a recovery code ever goes by e-mail.
    expect(enrolled.text).not.toContain(secret);
    for (const code of confirm.body.recovery_codes as string[]) expect(enrolled.text).not.toContain(code);

    advance();
    const renewed = await t.http
      .post('/api/v1/me/factors/recovery-codes')
      .set(bearer(token))
      .send({ code: codeAt(secret) });
    expect(renewed.status).toBe(200);
    advance();
    const removed = await t.http
      .post('/api/v1/me/factors/totp/remove')
      .set(bearer(token))
      .send({ code: codeAt(secret) });
    expect(removed.status).toBe(200);
    await drain();
    expect(mailsTo(user.email).map((m) => m.subject)).toEqual([
      'Vigía: se activó una aplicación de autenticación',
      'Vigía: se generaron nuevos códigos de recuperación',
      'Vigía: se quitó la aplicación de autenticación',
    ]);

    // The administrator's reset: the user it concerns is told, not the administrator.
    const reset = await t.http.delete(`/api/v1/users/${org.users.enfermeria.id}/factors`).set(bearer(org.tokens.admin));
    expect(reset.status).toBe(200);
    await drain();
    const [resetMail] = mailsTo(org.users.enfermeria.email);
    expect(resetMail.subject).toBe('Vigía: un administrador restableció su segundo factor');
    expect(resetMail.text).toContain('restableció su segundo factor y cerró sus sesiones');
    expect(mailsTo(org.users.admin.email)).toEqual([]);
  });
});
