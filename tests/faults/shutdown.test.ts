import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createOrg, bearer, PASSWORD } from '../support/product';
import { bootOn, freshDatabase, spawnApi, type ChildApi, type FaultDatabase } from './support';

/**
 * SIGTERM while a request is in flight: the server stops accepting connections, the request
 * finishes with its normal answer, and the process (server and job scheduler) exits with code 0.
 * The request in flight is a webhook validation, held open by the receiver: the test sees it arrive.
 */

let db: FaultDatabase;
let server: ChildApi | null = null;
let email: string;
let clientId: number;
let receiver: http.Server;
let arrived: () => void;
const arrival = new Promise<void>((resolve) => (arrived = resolve));
let release: () => void;
const released = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived();
      void released.then(() => res.end('ok'));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  db = await freshDatabase();
  const t = await bootOn(db, { allowHttpServices: true });
  try {
    const org = await createOrg(t, 'Clinica Apagado');
    clientId = org.clientId;
    email = org.users.admin.email;
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fhir`;
    expect(
      (
        await t.http
          .put(`/api/v1/clients/${clientId}`)
          .set(bearer(org.tokens.admin))
          .send({ webhook_url: url, security_phrase: 'frase-apagado-2026' })
      ).status,
    ).toBe(200);
  } finally {
    await t.stop();
  }
});
afterAll(async () => {
  release();
  await server?.kill('SIGKILL');
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await db?.drop();
});

/** True once nothing listens on the port any more (a new connection is refused). */
const refuses = (baseUrl: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(baseUrl);
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

describe('graceful shutdown (SIGTERM)', () => {
  it('finishes the request in flight, refuses new connections and exits 0', async () => {
    server = await spawnApi(db);
    const login = await fetch(`${server.baseUrl}/api/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(login.status).toBe(201);
    const { token } = (await login.json()) as { token: string };

    const inFlight = fetch(`${server.baseUrl}/api/v1/clients/${clientId}/validate_webhook`, { headers: bearer(token) });
    await arrival; // the server is now inside the request, waiting for the receiver
    const exit = server.kill('SIGTERM');
    while (!(await refuses(server.baseUrl))) await new Promise((r) => setTimeout(r, 20));
    release();

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'El webhook respondió correctamente y quedó validado.', type: 'success' });
    expect(await exit).toEqual({ code: 0, signal: null });
    server = null;
  });
});
