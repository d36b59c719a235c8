import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { components } from '@vigia/contract/openapi';
import { apiCall, createStaffSession, DEMO_ADMIN } from './support/api';
import { SCREENSHOT_DIR, waitForPath } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';

type FhirExport = components['schemas']['FhirExport'];
type Patient = components['schemas']['Patient'];

/** Kept for a person to look at (tests/e2e/.screenshots/fhir-exports-*.png). */
async function snapshot(page: Page, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `fhir-exports-${name}.png`), fullPage: true });
}

const NURSE = { email: 'enfermeria@demo.vigia.co', password: DEMO_ADMIN.password };
/** A read of the list (not of a file): what the page polls. */
const isListRead = (url: string) => new URL(url).pathname === '/api/v1/fhir_exports';
const menuEntry = (page: Page, label: string) =>
  page.locator('.vigia-sider-content .ant-menu .ant-menu-title-content').getByText(label, { exact: true });

/** The organisation's exports, newest first, as the API lists them. */
const listExports = (base: string, token: string) => apiCall<FhirExport[]>(base, token, 'GET', '/fhir_exports?_sort=id&_order=desc');

/** 'Exportaciones FHIR' (issue 37): an administrator starts a Bulk Data export, downloads a file and deletes the files. */
describe('Exportaciones FHIR (/fhir_exports)', () => {
  const product = useProductInBrowser();

  it('starts an export of patients and measurements, downloads a file of it and deletes its files', { timeout: 240_000 }, async () => {
    const base = product.server().baseUrl;
    const token = (await createStaffSession(base)).token;
    expect(await listExports(base, token)).toEqual([]);

    const page = await openSignedIn(product, '/integrations');
    await page.setViewportSize({ width: 1440, height: 900 });
    // From the 'Exportaciones FHIR' card of 'Integraciones' (the side menu has the same entry under Configuración).
    await page.getByRole('link', { name: 'Ver exportaciones' }).click();
    await waitForPath(page, '/fhir_exports');
    await page.getByText('¿Qué es una exportación FHIR?').waitFor({ state: 'visible' });
    await page.getByText('Aún no hay exportaciones. Inicie la primera con «Nueva exportación».').waitFor({ state: 'visible' });
    await expectAccessible(page);
    await snapshot(page, 'wide-empty');
    // On a 1280 px laptop the empty table fits its card: every header whole, none under another.
    await page.setViewportSize({ width: 1280, height: 800 });
    const box = async (name: string) => (await page.getByRole('columnheader', { name, exact: true }).boundingBox())!;
    const [created, actions, table] = [
      await box('Creada'),
      await box('Acciones'),
      (await page.locator('.ant-table-container').boundingBox())!,
    ];
    expect(created.x + created.width).toBeLessThanOrEqual(actions.x + 0.5);
    expect(actions.x + actions.width).toBeLessThanOrEqual(table.x + table.width + 0.5);
    await page.setViewportSize({ width: 1440, height: 900 });

    // The form: every type ticked; none ticked is refused in the browser, in Spanish.
    await page.getByRole('button', { name: 'Nueva exportación' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nueva exportación FHIR' });
    await dialog.waitFor({ state: 'visible' });
    const types = dialog.getByRole('checkbox');
    expect(await types.count()).toBe(10);
    for (const box of await types.all()) expect(await box.isChecked()).toBe(true);
    await expectAccessible(page);
    await snapshot(page, 'wide-form');
    for (const box of await types.all()) await box.uncheck();
    await dialog.getByRole('button', { name: 'Iniciar exportación' }).click();
    await dialog.getByText('Elija uno o más tipos de recurso').waitFor({ state: 'visible' });
    await dialog.getByRole('checkbox', { name: 'Pacientes (Patient)' }).check();
    await dialog.getByRole('checkbox', { name: 'Mediciones (Observation)' }).check();
    await dialog.getByRole('button', { name: 'Iniciar exportación' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const [started] = await listExports(base, token);
    expect(started).toMatchObject({ level: 'system', types: ['Patient', 'Observation'], since: null, group_id: null });
    // The list reads itself again while the export runs: 'Terminada' arrives without a reload.
    const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Borrar archivos: exportación ${started.id}` }) });
    await row.waitFor({ state: 'visible', timeout: 90_000 });
    await row.getByText('Terminada', { exact: true }).waitFor({ state: 'visible' });
    const [done] = await listExports(base, token);
    expect(done).toMatchObject({ id: started.id, status: 'completed' });
    expect(done.files.map((f) => f.type)).toEqual(expect.arrayContaining(['Patient', 'Observation']));
    const patientFile = done.files.find((f) => f.type === 'Patient')!;
    expect(patientFile.file).toBe('Patient.1.ndjson');
    expect(done.resources).toBe(done.files.reduce((n, f) => n + f.count, 0));
    for (const text of ['Toda la institución', 'Pacientes', 'Mediciones', 'Todo el historial', done.requested_by])
      await row.getByText(text, { exact: true }).first().waitFor({ state: 'visible' });
    await row.getByText(done.resources.toLocaleString('es-CO'), { exact: true }).waitFor({ state: 'visible' });

    // Once nothing is queued or running, the list is not read again.
    let reads = 0;
    const countReads = (request: { url(): string }) => void (isListRead(request.url()) && reads++);
    page.on('request', countReads);
    await page.waitForTimeout(5_000);
    page.off('request', countReads);
    expect(reads).toBe(0);

    // Its files, each with its count, and a download that carries the staff token.
    await row.getByRole('button', { name: `Ver archivos (${done.files.length})` }).click();
    const files = page.getByRole('table', { name: `Archivos de la exportación ${done.id}` });
    for (const f of done.files) {
      const fileRow = files.getByRole('row').filter({ hasText: f.file });
      await fileRow.getByText(f.count.toLocaleString('es-CO'), { exact: true }).waitFor({ state: 'visible' });
    }
    await expectAccessible(page);
    await snapshot(page, 'wide-files');
    const [download, request] = await Promise.all([
      page.waitForEvent('download'),
      page.waitForRequest((r) => r.url().endsWith(`/api/v1/fhir_exports/${done.id}/files/Patient.1.ndjson`)),
      files.getByRole('button', { name: 'Descargar Patient.1.ndjson' }).click(),
    ]);
    expect(request.headers().authorization).toMatch(/^Bearer \S+$/);
    expect(download.suggestedFilename()).toBe('Patient.1.ndjson');
    const lines = (await readFile((await download.path())!, 'utf8')).split('\n').filter((line) => line !== '');
    expect(lines.length).toBe(patientFile.count);
    const first = JSON.parse(lines[0]) as { resourceType: string; id: string; identifier: { value: string }[] };
    expect(first.resourceType).toBe('Patient');
    // A patient of this organisation: the staff API finds it under the same id, with the same document.
    const patient = await apiCall<Patient>(base, token, 'GET', `/patients/${first.id.replace(/^p/, '')}`);
    expect(first.identifier.map((i) => i.value)).toContain(patient.nid);

    // 'Borrar archivos', after a confirmation: the export is 'Caducada' and its file is gone.
    await row.getByRole('button', { name: `Borrar archivos: exportación ${done.id}` }).click();
    const confirm = page.getByRole('dialog', { name: '¿Borrar los archivos?' });
    await confirm.getByText('ya no se podrán descargar', { exact: false }).waitFor({ state: 'visible' });
    await snapshot(page, 'wide-delete');
    await confirm.getByRole('button', { name: 'Borrar archivos' }).click();
    await confirm.waitFor({ state: 'hidden' });
    const expiredRow = page.getByRole('row').filter({ hasText: 'Caducada' });
    await expiredRow.waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: `Borrar archivos: exportación ${done.id}` }).count()).toBe(0);
    expect((await listExports(base, token))[0]).toMatchObject({ id: done.id, status: 'expired' });
    const gone = await fetch(`${base}/api/v1/fhir_exports/${done.id}/files/Patient.1.ndjson`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(gone.status).toBe(404);
  });

  it('cancels a queued export from the list', { timeout: 180_000 }, async () => {
    const base = product.server().baseUrl;
    const token = (await createStaffSession(base)).token;
    // None left running by an earlier attempt (CI runs a failed browser test once more): two at most at once.
    for (const left of await apiCall<FhirExport[]>(base, token, 'GET', '/fhir_exports')) {
      if (left.status === 'queued' || left.status === 'running') await apiCall(base, token, 'DELETE', `/fhir_exports/${left.id}`);
    }
    const page = await openSignedIn(product, '/fhir_exports');
    await page.getByText('¿Qué es una exportación FHIR?').waitFor({ state: 'visible' });
    // Exports run one at a time per process: the second waits in the queue while the first runs.
    const first = await apiCall<FhirExport>(base, token, 'POST', '/fhir_exports', {});
    const second = await apiCall<FhirExport>(base, token, 'POST', '/fhir_exports', {});
    await page.getByRole('button', { name: 'Actualizar' }).click();
    const cancel = page.getByRole('button', { name: `Cancelar: exportación ${second.id}` });
    await cancel.click();
    const confirm = page.getByRole('dialog', { name: '¿Cancelar la exportación?' });
    await confirm.getByRole('button', { name: 'Cancelar exportación' }).click();
    await confirm.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ has: page.getByText('Cancelada', { exact: true }) });
    await row.waitFor({ state: 'visible' });
    expect(await apiCall<FhirExport>(base, token, 'GET', `/fhir_exports/${second.id}`)).toMatchObject({ status: 'cancelled', files: [] });
    await expectAccessible(page);
    await snapshot(page, 'wide-cancelled');
    // The first one is left to finish (or cancelled too, so the next test starts with none running).
    await apiCall(base, token, 'DELETE', `/fhir_exports/${first.id}`);
  });

  it('lays the list out on a phone', { timeout: 120_000 }, async () => {
    const page = await openSignedIn(product, '/fhir_exports');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText('¿Qué es una exportación FHIR?').waitFor({ state: 'visible' });
    // A card per export on a phone (issue 50), not a table that cuts its actions.
    await page.locator('.phone-card').first().waitFor({ state: 'visible' });
    expect(await page.locator('.ant-table').count()).toBe(0);
    await expectAccessible(page);
    await snapshot(page, 'phone-list');
    await page.getByRole('button', { name: 'Nueva exportación' }).click();
    await page.getByRole('dialog', { name: 'Nueva exportación FHIR' }).waitFor({ state: 'visible' });
    await snapshot(page, 'phone-form');
  });

  it("leaves the entry out of a nurse's menu, and the page says only administrators see it", async () => {
    const reads: string[] = [];
    const page = await openSignedIn(product, '/dashboard', NURSE);
    page.on('request', (r) => void (isListRead(r.url()) && reads.push(r.url())));
    await menuEntry(page, 'Reportes').waitFor({ state: 'attached' });
    expect(await menuEntry(page, 'Exportaciones FHIR').count()).toBe(0);
    await page.goto('/fhir_exports');
    await page.getByText('Solo los administradores ven y descargan las exportaciones FHIR').waitFor({ state: 'visible' });
    await page.getByText('Su rol no permite realizar esta acción.').waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Nueva exportación' }).count()).toBe(0);
    expect(reads).toEqual([]);
    await expectAccessible(page);
    await snapshot(page, 'nurse-forbidden');
  });
});
