import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiCall, createStaffSession, DEMO_ADMIN, DEMO_PATIENT, findPatientByNid } from './support/api';
import { closeToasts, SCREENSHOT_DIR, waitForPath, selectTab } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';
import { cutTexts } from './support/cut-text';
import {
  PEER_CLIENT_ID,
  PEER_CLIENT_SECRET,
  PEER_SCOPE,
  PEER_SUBSCRIPTION_KEY,
  REFUSAL_LOCATION,
  REFUSAL_TEXT,
  startIhcePeer,
  type IhcePeer,
} from '../support/ihce-peer';

/** Kept for a person to look at (tests/e2e/.screenshots/rdas-*.png). */
async function snapshot(page: Page, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `rdas-${name}.png`), fullPage: true });
}

const BOGOTA = 2611001;

/** The consultation's own data, complete (as tests/api/teleconsultations.test.ts writes it). */
const CONSULTATION = {
  cups_code: '890301',
  reps_service: '328',
  reason: 'Alerta de presión arterial elevada en el telemonitoreo',
  findings: 'Presión arterial 158/96 mmHg sostenida; sin síntomas de alarma',
  plan: 'Ajustar losartán; control de presión dos veces al día; nueva teleconsulta en 7 días',
  medication_note: 'Losartán 50 mg cada 12 horas',
  diagnoses: [{ code: 'I10X', diagnosis_type: '03' }, { code: 'E119' }],
  risk_factors: [{ code: '06', text: 'Sedentarismo y dieta alta en sodio' }],
};

type Rda = { id: number; patient_id: number; patient_name: string | null; status: string };
type Site = { id: number; name: string };

/**
 * An RDA de consulta externa of the demo patient, as the product writes one: the data the guide
 * requires filled in through the routes that own it (organisation, sede, practitioner, patient),
 * then a teleconsultation closed by the administrator.
 */
async function recordConsultationRda(base: string): Promise<{ rda: Rda; patientId: number; patientName: string }> {
  const session = (await createStaffSession(base)) as unknown as { token: string; user_id: number; client_id: number };
  const { token } = session;
  const patient = await findPatientByNid(base, token, DEMO_PATIENT.nid);
  const client = await apiCall<{ sites: Site[] }>(base, token, 'GET', `/clients/${session.client_id}`);
  const sites = client.sites.length
    ? client.sites.map((s, i) => ({ id: s.id, name: s.name, reps_site_code: `11001001230${i + 2}`, city_id: BOGOTA }))
    : [{ name: 'Sede principal', reps_site_code: '110010012302', city_id: BOGOTA }];
  const saved = await apiCall<{ sites: Site[] }>(base, token, 'PATCH', `/clients/${session.client_id}`, {
    nit: '900123456',
    reps_code: '110010012301',
    provider_class: 'IPS',
    legal_nature: 'PRIV',
    address: 'carrera 7 # 72-41',
    city_id: BOGOTA,
    sites,
  });
  await apiCall(base, token, 'PATCH', `/users/${session.user_id}`, {
    id_type: 1,
    nid: '79123456',
    profession: '001',
    rethus_number: '79123456-2012',
  });
  await apiCall(base, token, 'PATCH', `/patients/${patient.id}`, {
    biological_sex: '02',
    residence_zone: '01',
    nationality: '170',
    ethnicity: '6',
    disabilities: ['08'],
  });
  const encounter = await apiCall<{ id: number }>(base, token, 'POST', `/patients/${patient.id}/encounters`, { kind: 'teleconsultation' });
  await apiCall(base, token, 'PATCH', `/encounters/${encounter.id}/teleconsultation`, { ...CONSULTATION, site_id: saved.sites[0].id });
  const gaps = await apiCall<{ complete: boolean }>(base, token, 'GET', `/encounters/${encounter.id}/rda_gaps`);
  expect(gaps.complete, JSON.stringify(gaps)).toBe(true);
  await apiCall(base, token, 'POST', `/encounters/${encounter.id}/close`);
  const [rda] = await apiCall<Rda[]>(base, token, 'GET', `/rdas?patient_id=${patient.id}`);
  expect(rda).toMatchObject({ patient_id: patient.id });
  return { rda, patientId: patient.id, patientName: rda.patient_name ?? '' };
}

/** 'Integraciones → IHCE (RDA)', 'RDA enviados', a document's detail and the patient's 'RDA' tab (issue 51). */
describe('RDA (/rdas, /ihce)', () => {
  // http:// loopback URLs for the Ministry's platform, played by a local peer.
  const product = useProductInBrowser({ WEBHOOKS_ALLOW_HTTP: '1' });
  let peer: IhcePeer;
  let made: Awaited<ReturnType<typeof recordConsultationRda>>;

  beforeAll(async () => {
    peer = await startIhcePeer();
    made = await recordConsultationRda(product.server().baseUrl);
  }, 120_000);
  afterAll(async () => {
    await peer?.close();
  });

  /** The list, the detail and the patient's tab, each scanned by axe at the page's size. */
  async function readDocuments(page: Page, tag: string) {
    await page.goto('/rdas');
    await waitForPath(page, '/rdas');
    const row = page.locator('.ant-table-row, .phone-card').filter({ hasText: made.patientName }).first();
    await row.waitFor({ state: 'visible' });
    await row.getByText('RDA de consulta externa', { exact: false }).waitFor({ state: 'visible' });
    await expectAccessible(page);
    await snapshot(page, `${tag}-list`);

    await row.getByRole('link').first().click();
    await waitForPath(page, `/rdas/show/${made.rda.id}`);
    await page.getByText('Envío a la plataforma IHCE', { exact: true }).waitFor({ state: 'visible' });
    // Readable: the composition's sections as titled text, the patient named, the JSON folded away.
    await page.getByRole('heading', { name: 'Historial de diagnósticos de problemas de salud', exact: false }).first().waitFor();
    await page.getByText('Diagnóstico principal: I10X HIPERTENSION ESENCIAL (PRIMARIA)').waitFor();
    await page.getByText(made.patientName, { exact: false }).first().waitFor();
    expect(await page.getByLabel('Bundle FHIR en JSON').count()).toBe(0);
    await expectAccessible(page);
    await snapshot(page, `${tag}-detail`);
    await page.getByRole('button', { name: 'Ver JSON' }).click();
    await page.getByLabel('Bundle FHIR en JSON').waitFor({ state: 'visible' });
    expect(await page.getByLabel('Bundle FHIR en JSON').innerText()).toContain('"resourceType": "Bundle"');
    await expectAccessible(page);

    await page.goto(`/patients/${made.patientId}`);
    await waitForPath(page, `/patients/${made.patientId}`);
    await selectTab(page, 'RDA');
    const mine = page.getByRole('tabpanel', { name: 'RDA' }).getByRole('link', { name: /\d{2}\/\d{2}\/\d{4}/ });
    await mine.first().waitFor({ state: 'visible' });
    await expectAccessible(page);
    await snapshot(page, `${tag}-patient-tab`);
  }

  it(
    'saves the IHCE settings from Integraciones, tests the connection, and reads the RDA at 1440 × 900',
    { timeout: 240_000 },
    async () => {
      const page = await openSignedIn(product, '/integrations');
      await page.setViewportSize({ width: 1440, height: 900 });
      const link = page.getByRole('link', { name: 'Configurar IHCE' });
      await link.waitFor({ state: 'visible' });
      await link.click();
      await waitForPath(page, '/ihce');
      await page.getByLabel('URL del token').waitFor({ state: 'visible' });
      await expectAccessible(page);
      await snapshot(page, 'wide-ihce-empty');

      await page.getByRole('switch', { name: 'Envío a la plataforma IHCE activo' }).click();
      await page.getByLabel('URL del token').fill(peer.tokenUrl);
      await page.getByLabel('URL base de la API').fill(peer.baseUrl);
      await page.getByLabel('Client ID').fill(PEER_CLIENT_ID);
      await page.getByLabel('Client secret').fill(PEER_CLIENT_SECRET);
      await page.getByLabel('Ocp-Apim-Subscription-Key').fill(PEER_SUBSCRIPTION_KEY);
      await page.getByLabel('Scope').fill(PEER_SCOPE);
      await page.getByRole('button', { name: 'Guardar' }).click();
      // Saved: the secrets are never shown again, only that they are there.
      await page.getByRole('button', { name: 'Cambiar Client secret' }).waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Cambiar Ocp-Apim-Subscription-Key' }).waitFor({ state: 'visible' });
      expect(await page.locator('input[type="password"]').count()).toBe(0);
      expect(await page.content()).not.toContain(PEER_CLIENT_SECRET);
      await closeToasts(page);

      await page.getByRole('button', { name: 'Probar conexión' }).click();
      const result = page.locator('.ihce-test-result');
      await result.getByText('Conexión correcta').waitFor({ state: 'visible' });
      await result.getByText('la conexión funciona', { exact: false }).waitFor({ state: 'visible' });
      expect(peer.tokenRequests.at(-1)).toMatchObject({ grant_type: 'client_credentials', client_id: PEER_CLIENT_ID });
      await expectAccessible(page);
      await snapshot(page, 'wide-ihce-saved');

      await readDocuments(page, 'wide');
    },
  );

  it('shows the saved settings, the list, the detail and the tab at 390 × 844, axe clean', { timeout: 240_000 }, async () => {
    const page = await openSignedIn(product, '/ihce');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Cambiar Client secret' }).waitFor({ state: 'visible' });
    await expectAccessible(page);
    await snapshot(page, 'phone-ihce');
    await readDocuments(page, 'phone');
  });

  it(
    "shows a nurse the platform's refusal in Spanish with where it is, at 1440 × 900 and 390 × 844; 'Reenviar' is the administrator's",
    { timeout: 240_000 },
    async () => {
      const base = product.server().baseUrl;
      // The settings saved above: the next document is sent at once, and the platform refuses it.
      peer.fail('refuse', 3); // a patient's statement falling due may be sent first
      const refused = await recordConsultationRda(base);
      const { token } = await createStaffSession(base);
      const status = async () => (await apiCall<{ status: string }>(base, token, 'GET', `/rdas/${refused.rda.id}`)).status;
      await expect.poll(status, { timeout: 60_000 }).toBe('rechazado');

      const page = await openSignedIn(product, `/rdas/show/${refused.rda.id}`, {
        email: 'enfermeria@demo.vigia.co',
        password: DEMO_ADMIN.password,
      });
      for (const [width, height, tag] of [
        [1440, 900, 'wide'],
        [390, 844, 'phone'],
      ] as const) {
        await page.setViewportSize({ width, height });
        const issues = page.locator('.rda-issues');
        await issues.getByText(REFUSAL_TEXT, { exact: true }).waitFor({ state: 'visible' });
        await issues.getByText(REFUSAL_LOCATION, { exact: true }).waitFor({ state: 'visible' });
        await page.getByText('Problemas señalados por el Ministerio (1)', { exact: true }).waitFor({ state: 'visible' });
        await page.getByText('Rechazado', { exact: true }).first().waitFor({ state: 'visible' });
        // The nurse reads it; resending is the administrator's, and the button says so.
        expect(await page.getByRole('button', { name: 'Reenviar' }).isDisabled()).toBe(true);
        expect(await cutTexts(page, '.ant-card-head-title, .rda-issues .ant-typography')).toEqual([]);
        await expectAccessible(page);
        await snapshot(page, `${tag}-refused`);
      }
    },
  );
});
