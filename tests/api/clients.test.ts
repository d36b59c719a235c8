import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadConfig } from '../../api/src/config';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';

/** Client settings (03 §2 webhook and integrations pages, §7 GET/PUT /clients/{id}, D20). */
let t: TestProduct;
let org: Org;
let other: Org;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Ajustes');
  other = await createOrg(t, 'Clinica Vecina');
});
afterAll(() => t.stop());

const admin = () => bearer(org.tokens.admin);
const url = () => `/api/v1/clients/${org.clientId}`;

describe('client settings', () => {
  it('answers the webhook and integration fields, secrets only as "is set" (D20)', async () => {
    const res = await t.http.get(url()).set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      webhook_url: null,
      security_phrase_set: false,
      validate: false,
      webhook_measurements: false,
      webhook_alerts: false,
      webhook_disabled_reason: null,
      residents_enabled: false,
      residents_url: null,
      residents_user: null,
      residents_password_set: false,
    });
  });

  it('saves the integration; the password is never answered, by PUT, PATCH or GET', async () => {
    const secret = 'Clave-Resi-9876';
    const saved = await t.http.put(url()).set(admin()).send({
      residents_enabled: true,
      residents_url: 'https://residencias.example/resi',
      residents_user: 'api-vigia',
      residents_password: secret,
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      residents_enabled: true,
      residents_url: 'https://residencias.example/resi',
      residents_user: 'api-vigia',
      residents_password_set: true,
    });
    const patched = await t.http
      .patch(url())
      .set(admin())
      .send({ client: { residents_user: 'otro-usuario' } });
    expect(patched.body).toMatchObject({ residents_user: 'otro-usuario', residents_password_set: true });
    for (const body of [saved.body, patched.body, (await t.http.get(url()).set(admin())).body]) {
      expect(JSON.stringify(body)).not.toContain(secret);
      expect(body).not.toHaveProperty('residents_password');
    }
    const off = await t.http.patch(url()).set(admin()).send({ residents_enabled: false });
    expect(off.body.residents_enabled).toBe(false);
  });

  it.each([
    [{ webhook_url: 'no es una url', security_phrase: 'frase-segura' }, 'webhook_url', '¡El formato de la URL no es válido!'],
    [{ webhook_url: 'https://receptor.example/fhir' }, 'security_phrase', '¡El campo es requerido!'],
    [{ webhook_url: 'https://receptor.example/fhir', security_phrase: 'corta' }, 'security_phrase', 'Debe tener mínimo 6 caracteres'],
    [{ webhook_alerts: true }, 'webhook_url', '¡El campo es requerido!'],
    // 03 §5: https:// only, without WEBHOOKS_ALLOW_HTTP (whatever NODE_ENV says), and not the server's own network.
    [
      { webhook_url: 'http://receptor.example/fhir', security_phrase: 'frase-segura' },
      'webhook_url',
      '¡El formato de la URL no es válido!',
    ],
    [{ webhook_url: 'http://127.0.0.1:9/fhir', security_phrase: 'frase-segura' }, 'webhook_url', '¡El formato de la URL no es válido!'],
    [{ webhook_url: 'https://127.0.0.1:9/fhir', security_phrase: 'frase-segura' }, 'webhook_url', '¡El formato de la URL no es válido!'],
    [
      { residents_enabled: true, residents_url: 'http://residencias.example/api', residents_user: 'api', residents_password: 'Clave-1' },
      'residents_url',
      '¡El formato de la URL no es válido!',
    ],
    [{ residents_enabled: true, residents_url: null }, 'residents_url', '¡El campo es requerido!'],
    [{ validate: true }, 'validate', "El campo 'validate' no está permitido."],
    [{}, 'body', 'Envíe al menos un campo para actualizar.'],
  ])('refuses %j with 400 on %s', async (body, field, message) => {
    const res = await t.http.put(url()).set(admin()).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('editing the webhook URL clears validate', async () => {
    await t.http.put(url()).set(admin()).send({ webhook_url: 'https://receptor.example/fhir', security_phrase: 'frase-segura' });
    await t.sequelize.query('UPDATE clients SET webhook_validated = :on WHERE id = :id', { replacements: { on: true, id: org.clientId } });
    expect((await t.http.get(url()).set(admin())).body.validate).toBe(true);
    const subs = await t.http.patch(url()).set(admin()).send({ webhook_measurements: true });
    expect(subs.body).toMatchObject({ validate: true, webhook_measurements: true });
    const edited = await t.http.patch(url()).set(admin()).send({ webhook_url: 'https://receptor.example/otro' });
    expect(edited.body).toMatchObject({ validate: false, webhook_url: 'https://receptor.example/otro', security_phrase_set: true });
    expect(JSON.stringify(edited.body)).not.toContain('frase-segura');
  });

  it.each(['medico', 'enfermeria', 'consulta'] as const)('refuses changes by %s with 403', async (role) => {
    const res = await t.http.put(url()).set(bearer(org.tokens[role])).send({ webhook_alerts: false });
    expect(res.status).toBe(403);
  });

  it("answers 404 for another client's settings, read or write", async () => {
    const theirs = `/api/v1/clients/${other.clientId}`;
    expect((await t.http.get(theirs).set(admin())).status).toBe(404);
    expect((await t.http.put(theirs).set(admin()).send({ residents_enabled: false })).status).toBe(404);
    expect((await t.http.get(`${theirs}/validate_webhook`).set(admin())).status).toBe(404);
  });
});

describe('http:// service URLs (03 §5)', () => {
  it('are refused by a default start (no NODE_ENV) and allowed only by WEBHOOKS_ALLOW_HTTP=1', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-config-'));
    try {
      const plain = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'clave' });
      expect(plain).toMatchObject({ env: 'development', allowHttpServices: false });
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'clave', NODE_ENV: 'test' }).allowHttpServices).toBe(false);
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'clave', WEBHOOKS_ALLOW_HTTP: 'true' }).allowHttpServices).toBe(false);
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'clave', WEBHOOKS_ALLOW_HTTP: '1' }).allowHttpServices).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
