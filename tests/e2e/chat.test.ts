import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, waitForPath, SCREENSHOT_DIR } from './support/browser';
import { startServer, type RunningServer } from './support/server';
import { createStaffSession, DEMO_ADMIN } from './support/api';
import { submitStaffLogin } from './support/product';
import { startFakeProvider, startFakeModel, inboundBody, signed, type FakeProvider, type FakeModel } from '../support/messaging-peers';

/** A solid-colour PNG (width × height), so the chat shows a real image. */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3])]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SECRET = 'secreto-e2e-chat';
let provider: FakeProvider;
let model: FakeModel;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  provider = await startFakeProvider();
  model = await startFakeModel();
  server = await startServer({
    MESSAGING_URL: provider.url,
    MESSAGING_TOKEN: 'proveedor-token',
    MESSAGING_WEBHOOK_SECRET: SECRET,
    AI_BASE_URL: `${model.url}/v1`,
    AI_MODEL: 'modelo-e2e',
  });
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
  await model?.close();
}, 30_000);

describe('Chat del paciente', () => {
  it('shows a conversation with an image, an audio with its transcription and an AI answer', async () => {
    const base = server.baseUrl;
    const session = await createStaffSession(base, DEMO_ADMIN);
    const auth = { Authorization: `Bearer ${session.token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${base}/api/v1/patients`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        id_type: 1,
        nid: '1098765432',
        first_name: 'Lucía',
        last_name: 'Rendón Mejía',
        country_id: 26,
        city_id: 2611001,
        birth_date: '1948-02-11',
        gender: 0,
        address: 'Carrera 7 # 45-10',
        neighborhood: 'Chapinero',
        prefix: '+57',
        cellphone: '3167654321',
        email: 'lucia.rendon@example.co',
      }),
    });
    expect(created.status).toBe(201);
    const patient = (await created.json()) as { id: number };
    const clientId = session.client_id;

    provider.media.set('img-e2e', { bytes: png(320, 200, [46, 125, 50]), mime: 'image/png' });
    provider.media.set('aud-e2e', { bytes: Buffer.alloc(14_200, 7), mime: 'audio/ogg' });
    model.script.push({ content: 'Gracias, Lucía. Su herida se ve limpia; siga con las curaciones y escríbanos si nota enrojecimiento.' });
    const from = '573167654321';
    const post = async (id: string, message: Record<string, unknown>) => {
      const s = signed(SECRET, inboundBody(from, id, message, 'Lucía'));
      const res = await fetch(`${base}/api/v1/messaging/webhook/${clientId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': s.signature },
        body: s.raw,
      });
      expect(res.status).toBe(200);
    };
    await post('wamid.e2e.1', { type: 'text', text: { body: 'Buenos días, les envío la foto de la herida' } });
    await post('wamid.e2e.2', { type: 'image', image: { id: 'img-e2e', mime_type: 'image/png' } });
    await post('wamid.e2e.3', {
      type: 'audio',
      audio: {
        id: 'aud-e2e',
        mime_type: 'audio/ogg',
        filename: 'nota-de-voz-lucia-manana.ogg',
        transcription: 'Hoy amanecí con menos dolor en la pierna',
      },
    });

    // The server's job poller downloads the attachments and asks the model for an answer.
    const deadline = Date.now() + 30_000;
    let ready = false;
    while (!ready && Date.now() < deadline) {
      const page = (await (await fetch(`${base}/api/v1/patients/${patient.id}/messages?per_page=10`, { headers: auth })).json()) as {
        messages: Array<{ ai: boolean; status: string; attachments: { image: unknown; audio: { url: string | null } | null } }>;
      };
      ready =
        page.messages.some((m) => m.ai && m.status === 'sent') &&
        page.messages.filter((m) => m.attachments.image || m.attachments.audio?.url).length === 2;
      if (!ready) await new Promise((r) => setTimeout(r, 500));
    }
    expect(ready).toBe(true);

    const page = await openPage(browser, base, { viewport: { width: 1280, height: 1100 } });
    await page.goto(`/patients/${patient.id}?tab=chat`);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await waitForPath(page, `/patients/${patient.id}?tab=chat`);
    const list = page.getByTestId('chat-list');
    await list.waitFor({ state: 'visible' });
    await list.getByText('Buenos días, les envío la foto de la herida').waitFor({ state: 'visible' });
    const image = list.getByRole('img', { name: 'Imagen enviada por el paciente' });
    await image.waitFor({ state: 'visible' });
    expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(320);
    await list.getByText('nota-de-voz-lucia-ma...').waitFor({ state: 'visible' });
    await list.getByText('0:14').waitFor({ state: 'visible' });
    await list.getByText('«Hoy amanecí con menos dolor en la pierna»').waitFor({ state: 'visible' });
    await list.getByText('Gracias, Lucía. Su herida se ve limpia', { exact: false }).waitFor({ state: 'visible' });
    await list.getByText('IA', { exact: true }).waitFor({ state: 'visible' });
    await list.getByText('Hoy', { exact: true }).first().waitFor({ state: 'visible' });
    await page.getByText(/^Última actividad: hoy \d\d:\d\d$/).waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Enviar Bienvenida' }).count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/chat.png`, fullPage: true });

    await image.click();
    const viewer = page.getByRole('dialog', { name: 'Imagen' });
    await viewer.waitFor({ state: 'visible' });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/chat-image-viewer.png` });
    // The close button, not Escape: a key pressed while the dialog still animates in can be lost.
    await viewer.locator('.ant-modal-close').click();
    await viewer.waitFor({ state: 'hidden' });

    // Staff write from the composer; the message goes out through the provider.
    await page.getByLabel('Mensaje para el paciente').fill('Lucía, mañana la llamamos para revisar la curación.');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await list.getByText('Lucía, mañana la llamamos para revisar la curación.').waitFor({ state: 'visible' });
    const sentDeadline = Date.now() + 15_000;
    while (!provider.sent.some((s) => s.body.text?.body?.startsWith('Lucía, mañana')) && Date.now() < sentDeadline)
      await new Promise((r) => setTimeout(r, 300));
    expect(provider.sent.find((s) => s.body.text?.body?.startsWith('Lucía, mañana'))?.body.to).toBe(from);
  });

  it('offers Enviar Bienvenida on an empty chat and confirms it', async () => {
    const base = server.baseUrl;
    const session = await createStaffSession(base, DEMO_ADMIN);
    const auth = { Authorization: `Bearer ${session.token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${base}/api/v1/patients`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        id_type: 1,
        nid: '1098765433',
        first_name: 'Jorge',
        last_name: 'Salazar',
        country_id: 26,
        city_id: 2611001,
        birth_date: '1950-06-01',
        gender: 1,
        address: 'Calle 80 # 20-10',
        neighborhood: 'Polo',
        prefix: '+57',
        cellphone: '3167654322',
        email: 'jorge.salazar@example.co',
      }),
    });
    const patient = (await created.json()) as { id: number };
    const page = await openPage(browser, base);
    await page.goto(`/patients/${patient.id}?tab=chat`);
    await waitForPath(page, '/');
    await submitStaffLogin(page, DEMO_ADMIN);
    await page.getByText('No hay mensajes aún').waitFor({ state: 'visible' });
    await page.getByText('Mensaje de Bienvenida', { exact: true }).waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Enviar Bienvenida' }).click();
    await page.getByText('Mensaje de bienvenida enviado exitosamente').first().waitFor({ state: 'visible' });
    await page
      .getByTestId('chat-list')
      .getByText(/le da la bienvenida/)
      .waitFor({ state: 'visible' });
  });
});
