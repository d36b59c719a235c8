import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { closeToasts, openPage, waitForPath } from './support/browser';
import { createStaffSession, DEMO_ADMIN, DEMO_PATIENT, findPatientByNid } from './support/api';
import { submitStaffLogin, useProductInBrowser } from './support/product';
import { webhookSecret } from '../../api/src/modules/webhooks/webhooks.rules';

/** The HL7 FHIR webhook page (03 §2, D19, D20) against a receiver on loopback. */
describe('Webhook HL7 FHIR (/webhooks)', () => {
  // The receiver is http:// on loopback: only the explicit development setting lets it in (03 §5).
  const product = useProductInBrowser({ WEBHOOKS_ALLOW_HTTP: '1' });
  const PHRASE = 'frase-del-receptor-e2e';
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  let receiverUrl = '';
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.end('ok');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fhir`;
  });
  afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

  async function signIn(): Promise<Page> {
    const page = await openPage(product.browser(), product.server().baseUrl);
    await page.goto('/webhooks');
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await waitForPath(page, '/webhooks');
    return page;
  }

  it('registers, validates, subscribes and shows a delivered, signed Observation in the log', async () => {
    const page = await signIn();
    await page.getByLabel('URL Webhook').fill(receiverUrl);
    await page.getByLabel('Palabra de seguridad').fill(PHRASE);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('••••••••').waitFor({ state: 'visible' });
    expect(await page.content()).not.toContain(PHRASE);
    // Three notifications at once become the notifications dialog (03 §2), which would cover the
    // switch below: the welcome and 'saved' toasts are closed before 'Validar' adds its own.
    await closeToasts(page);

    await page.getByRole('button', { name: 'Validar' }).click();
    await page.getByText('Verificado').waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Validar' }).isDisabled()).toBe(true);
    expect(new Webhook(webhookSecret(PHRASE)).verify(received[0].body, received[0].headers)).toMatchObject({ resourceType: 'Parameters' });

    await page.getByRole('switch', { name: 'Mediciones' }).click();
    await page.getByText('Suscrito', { exact: true }).waitFor({ state: 'visible' });

    const base = product.server().baseUrl;
    const session = await createStaffSession(base);
    const patient = await findPatientByNid(base, session.token, DEMO_PATIENT.nid);
    const res = await fetch(`${base}/api/v1/patients/${patient.id}/measurements`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${session.token}` },
      body: JSON.stringify({ clinical_element: 1, value: 77 }),
    });
    expect(res.status).toBe(201);

    // The server's job runner delivers in the background.
    const deadline = Date.now() + 15_000;
    while (!received.some((r) => r.body.includes('"Observation"')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const observation = received.find((r) => r.body.includes('"Observation"'))!;
    expect(new Webhook(webhookSecret(PHRASE)).verify(observation.body, observation.headers)).toMatchObject({
      valueQuantity: { value: 77, code: '/min' },
    });

    await page.getByRole('button', { name: 'Actualizar' }).click();
    const row = page.getByRole('row', { name: /Medición \(Observation\)/ });
    await row.getByText('Entregado', { exact: true }).waitFor({ state: 'visible' });
    const before = received.length;
    await row.getByRole('button', { name: 'Reenviar' }).click();
    await page.getByText('La entrega quedó en cola para reenviarse.').waitFor({ state: 'visible' });
    const until = Date.now() + 15_000;
    while (received.length === before && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(received[before].headers['webhook-id']).toBe(observation.headers['webhook-id']);
  });

  it('editing the URL clears the verified mark', async () => {
    const page = await signIn();
    await page.getByText('Verificado').waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Editar' }).click();
    await page.getByLabel('URL Webhook').fill(`${receiverUrl}/nuevo`);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Sin validar').waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Validar' }).isDisabled()).toBe(false);
  });
});
