import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { execute } from '../../api/src/db/sql';

/** A residents-management product on loopback: Basic auth, GET /residents/{code}. */
const RESIDENTS: Record<string, object> = {
  '00010': { id: 4711, full_name: 'ROSA ELENA PARRA', document_id: '41234567', document_id_type: 'CC', code: '00010' },
};
let peer: http.Server;
let peerUrl: string;
const seen: Array<{ url: string; auth: string | undefined }> = [];

let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
beforeAll(async () => {
  peer = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', auth: req.headers.authorization });
    if (req.headers.authorization !== `Basic ${Buffer.from('vigia:clave-secreta').toString('base64')}`) {
      res.writeHead(401).end();
      return;
    }
    const code = decodeURIComponent((req.url ?? '').replace(/^\/api\/residents\//, ''));
    if (code === '99999') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
      return;
    }
    const resident = RESIDENTS[code];
    if (!resident) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(resident));
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/api`;
  t = await startTestProduct();
  org = await createOrg(t, 'Residencia Integrada');
  other = await createOrg(t, 'Residencia Sin Integracion');
  await execute(
    t.sequelize,
    'UPDATE clients SET residents_enabled = :on, residents_url = :url, residents_user = :user, residents_password = :password WHERE id = :id',
    {
      on: true,
      url: peerUrl,
      user: 'vigia',
      password: 'clave-secreta',
      id: org.clientId,
    },
  );
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
});
afterAll(async () => {
  await t.stop();
  await new Promise((resolve) => peer.close(resolve));
});

const lookup = (code: string, token = org.tokens.enfermeria, clientId = org.clientId) =>
  t.http.get(`/api/v1/clients/${clientId}/residents/${code}`).set(bearer(token));

describe('residents lookup (01 §2 Ajustes, D18)', () => {
  it('finds a resident by code, keeping leading zeros, with the client credentials', async () => {
    const res = await lookup('00010');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 4711, full_name: 'ROSA ELENA PARRA', document_id: '41234567', document_id_type: 'CC', code: '00010' });
    expect(seen.at(-1)).toMatchObject({
      url: '/api/residents/00010',
      auth: `Basic ${Buffer.from('vigia:clave-secreta').toString('base64')}`,
    });
  });

  it('answers 404 Residente no encontrado when the product does not know the code', async () => {
    const res = await lookup('00011');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Residente no encontrado');
  });

  it('answers 502 with a Spanish message when the product fails or refuses the credentials', async () => {
    const failing = await lookup('99999');
    expect(failing.status).toBe(502);
    expect(failing.body.message).toBe('El sistema de residentes respondió con un error (500).');
    await execute(t.sequelize, 'UPDATE clients SET residents_password = :p WHERE id = :id', { p: 'otra', id: org.clientId });
    const refused = await lookup('00010');
    expect(refused.status).toBe(502);
    expect(refused.body.message).toBe('El sistema de residentes rechazó el usuario o la contraseña de la integración.');
    await execute(t.sequelize, 'UPDATE clients SET residents_password = :p WHERE id = :id', { p: 'clave-secreta', id: org.clientId });
  });

  it('answers 502 when the product cannot be reached', async () => {
    await execute(t.sequelize, 'UPDATE clients SET residents_url = :u WHERE id = :id', { u: 'http://127.0.0.1:1/api', id: org.clientId });
    const res = await lookup('00010');
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('No fue posible comunicarse con el sistema de residentes.');
    await execute(t.sequelize, 'UPDATE clients SET residents_url = :u WHERE id = :id', { u: peerUrl, id: org.clientId });
  });

  it('refuses a client without the integration with 409', async () => {
    const res = await lookup('00010', other.tokens.admin, other.clientId);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('La integración con el sistema de residentes no está habilitada para este cliente.');
  });

  it('validates the code (digits only) with 400, answers 404 for another client id and 403 to consulta', async () => {
    const bad = await lookup('10A');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'code', message: 'El código debe tener solo números, incluidos los ceros a la izquierda' });
    expect((await lookup('00010', other.tokens.admin, org.clientId)).status).toBe(404);
    expect((await lookup('00010', org.tokens.consulta)).status).toBe(403);
  });

  it('assigns the found resident to the patient and unassigns it', async () => {
    const resident = (await lookup('00010')).body;
    const assigned = await t.http
      .put(`/api/v1/patients/${patientId}`)
      .set(bearer(org.tokens.enfermeria))
      .send({ resiplus_data: resident, resiplus_code: resident.code, resiplus_id: String(resident.id) });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({ resiplus_code: '00010', resiplus_id: '4711', resiplus_data: { full_name: 'ROSA ELENA PARRA' } });
    const cleared = await t.http
      .put(`/api/v1/patients/${patientId}`)
      .set(bearer(org.tokens.enfermeria))
      .send({ resiplus_data: null, resiplus_code: null, resiplus_id: null });
    expect(cleared.body).toMatchObject({ resiplus_data: null, resiplus_code: null, resiplus_id: null });
  });
});
