import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { failReads, pathOf, waitForPath } from './support/browser';
import { createStaffSession, DEMO_PATIENT } from './support/api';
import { useProductInBrowser, openSignedIn } from './support/product';
import { expectAccessible } from './support/accessibility';

/** Pacientes (01 §2): creation through the validate-first dialog, contact edits, status changes. */
describe('Pacientes and the patient page', () => {
  const product = useProductInBrowser();

  /** A patient made through the API, to start a browser test from a known state. */
  async function apiPatient(overrides: Record<string, unknown>): Promise<{ id: number; full_name: string }> {
    const { token } = await createStaffSession(product.server().baseUrl);
    const res = await fetch(`${product.server().baseUrl}/api/v1/patients`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        id_type: 1,
        country_id: 26,
        first_name: 'Rosa Elena',
        last_name: 'Quintero Díaz',
        birth_date: '1948-05-10',
        gender: 0,
        city_id: 2611001,
        address: 'Calle 10 # 4-20',
        neighborhood: 'La Candelaria',
        prefix: '+57',
        cellphone: '3157654321',
        email: 'rosa@example.co',
        ...overrides,
      }),
    });
    if (res.status !== 201) throw new Error(`create patient answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: number; full_name: string };
  }

  const statusTag = (page: Page, label: string) => page.locator('.patient-card .patient-status-tag', { hasText: label });

  it('creates a patient: the document is validated first, then the blank form is revealed', async () => {
    const page = await openSignedIn(product, '/patients');
    await page.getByRole('menuitem', { name: 'Nuevo paciente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo paciente' });
    await dialog.waitFor({ state: 'visible' });
    const validate = dialog.getByRole('button', { name: 'Validar paciente' });
    await dialog.getByLabel('Número de documento').fill('12');
    await dialog.getByText('¡El valor ingresado no es válido o está incompleto!').waitFor();
    expect(await validate.isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Nombres').count()).toBe(0);

    await dialog.getByLabel('Número de documento').fill('77.001.122');
    await validate.click();
    await dialog.getByText('No existe un paciente con ese documento. Puede registrarlo.').waitFor();
    const save = dialog.getByRole('button', { name: 'Guardar' });
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Nombres').fill('josé miguel');
    expect(await dialog.getByLabel('Nombres').inputValue()).toBe('JOSÉ MIGUEL');
    await dialog.getByLabel('Apellidos').fill('Ortega Ruiz');
    await dialog.getByLabel('Género', { exact: true }).click();
    await page.locator('.ant-select-dropdown:visible').getByText('Masculino', { exact: true }).click();
    await dialog.getByLabel('Ciudad').click();
    await dialog.getByLabel('Ciudad').fill('Bogot');
    await page
      .locator('.ant-select-dropdown:visible')
      .getByText(/^Bogotá, D\.C\./)
      .first()
      .click();
    await dialog.getByLabel('Dirección').fill('Carrera 7 # 32-16');
    await dialog.getByLabel('Barrio').fill('San Martín');
    await dialog.getByLabel('Teléfono').fill('3209876543');
    await dialog.getByLabel('Correo electrónico').fill('jose.ortega@example.co');
    await expect.poll(() => save.isDisabled()).toBe(false);
    await save.click();

    await page.waitForURL(/\/patients\/\d+$/);
    await page.getByRole('heading', { name: 'JOSÉ MIGUEL ORTEGA RUIZ' }).waitFor();
    await statusTag(page, 'Activo').waitFor();
  });

  it('says once when the options of the form could not be read, instead of codes; «Reintentar» brings them', async () => {
    const page = await openSignedIn(product, '/patients');
    const countries = /\/api\/v1\/listings\/countries(\?|$)/;
    await failReads(page, countries);
    await page.getByRole('menuitem', { name: 'Nuevo paciente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo paciente' });
    const alert = dialog.getByRole('alert').filter({ hasText: 'No fue posible cargar las opciones de algunos campos' });
    await alert.waitFor();
    expect(await dialog.getByText('Colombia', { exact: true }).count()).toBe(0);
    await expectAccessible(page);
    await page.unroute(countries);
    await alert.getByRole('button', { name: 'Reintentar' }).click();
    await alert.waitFor({ state: 'detached' });
    await dialog.getByText('Colombia', { exact: true }).waitFor();
  });

  it('the sociodemographic dialog says the same when its options could not be read', async () => {
    const patient = await apiPatient({ nid: '52004488', first_name: 'Marta Inés' });
    const page = await openSignedIn(product, '/patients');
    const occupations = /\/api\/v1\/listings\/occupations(\?|$)/;
    await failReads(page, occupations);
    await page.goto(`/patients/${patient.id}?tab=settings`);
    await page.getByRole('button', { name: 'Editar datos sociodemográficos' }).click();
    const dialog = page.getByRole('dialog', { name: 'Datos sociodemográficos' });
    const alert = dialog.getByRole('alert').filter({ hasText: 'No fue posible cargar las opciones de algunos campos' });
    await alert.waitFor();
    await page.unroute(occupations);
    await alert.getByRole('button', { name: 'Reintentar' }).click();
    await alert.waitFor({ state: 'detached' });
    await dialog.getByLabel('Ocupación').click();
    // The list opens with its options (the dropdown animates in: waited for, not counted at once).
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor();
  });

  it('an address that names no patient (/patients/create) is «Página no encontrada», without asking the server', async () => {
    const page = await openSignedIn(product, '/patients');
    const asked: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/v1/patients/')) asked.push(req.url());
    });
    await page.goto('/patients/create');
    await page.getByText('Página no encontrada').waitFor();
    expect(asked).toEqual([]);
  });

  it('opens an existing patient straight from the validation', async () => {
    const page = await openSignedIn(product, '/patients/new');
    const dialog = page.getByRole('dialog', { name: 'Nuevo paciente' });
    await dialog.getByLabel('Número de documento').fill(DEMO_PATIENT.nid);
    await dialog.getByRole('button', { name: 'Validar paciente' }).click();
    await page.waitForURL(/\/patients\/\d+$/);
    await page.getByText('El paciente ya está registrado.').waitFor();
  });

  it('completing the contact data turns an incomplete patient (2) active (1)', async () => {
    const p = await apiPatient({ nid: '77001123', email: null });
    const page = await openSignedIn(product, `/patients/${p.id}`);
    await statusTag(page, 'Incompleto').waitFor();
    await page.getByText('Dato Incompleto').waitFor();
    await page.getByRole('button', { name: 'Editar información de contacto' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar información de contacto' });
    await dialog.getByLabel('Correo electrónico').fill('rosa.quintero@example.co');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Datos de contacto completos: el paciente quedó activo.').waitFor();
    await statusTag(page, 'Activo').waitFor();
    expect(await page.getByText('Dato Incompleto').count()).toBe(0);
  });

  it('inactivates only after the confirmation, and cancel keeps the patient active', async () => {
    const p = await apiPatient({ nid: '77001124' });
    const page = await openSignedIn(product, `/patients/${p.id}`);
    const toggle = page.getByRole('switch', { name: 'Estado del paciente' });
    await toggle.click();
    let dialog = page.getByRole('dialog', { name: '¿Inactivar al paciente?' });
    await dialog.getByText('No podrá enviar mediciones.').waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await statusTag(page, 'Activo').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');

    await toggle.click();
    dialog = page.getByRole('dialog', { name: '¿Inactivar al paciente?' });
    await dialog.getByRole('button', { name: 'Inactivar' }).click();
    await page.getByText('Paciente inactivado. Sus actividades futuras quedaron suspendidas.').waitFor();
    await statusTag(page, 'Inactivo').waitFor();

    await toggle.click();
    await page.getByText('Paciente activado correctamente').waitFor();
    await statusTag(page, 'Activo').waitFor();
  });

  it('declares a death: irreversible, and the record becomes read-only', async () => {
    const p = await apiPatient({ nid: '77001125' });
    const page = await openSignedIn(product, `/patients/${p.id}`);
    await page.getByRole('button', { name: 'Declarar fallecimiento' }).click();
    const dialog = page.getByRole('dialog', { name: 'Declarar fallecimiento' });
    const confirm = dialog.getByRole('button', { name: 'Declarar fallecimiento' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Confirmo que el paciente falleció').check();
    await confirm.click();
    await page.getByText('Paciente registrado como fallecido. Sus órdenes y actividades pendientes fueron canceladas.').waitFor();
    await statusTag(page, 'Fallecido').waitFor();
    await page.getByText('Paciente fallecido', { exact: true }).waitFor();
    expect(await page.getByRole('switch', { name: 'Estado del paciente' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Editar información de contacto' }).isDisabled()).toBe(true);
    expect(pathOf(page)).toBe(`/patients/${p.id}`);
  });

  it('lists patients in status tabs and searches by name with mini cards', async () => {
    await apiPatient({ nid: '77001126', first_name: 'Wilfredo', last_name: 'Zapata', email: null, address: null });
    const page = await openSignedIn(product, '/patients');
    await page.getByRole('tab', { name: 'Activos', exact: true }).waitFor();
    await page.getByRole('columnheader', { name: 'N° Documento' }).waitFor();
    await page.getByPlaceholder('Buscar por nombre o número de documento').fill('wilfr zapa');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await waitForPath(page, '/patients?q=wilfr+zapa');
    const card = page.locator('.patient-mini', { hasText: 'WILFREDO ZAPATA' });
    await card.getByText('Email Incompleto').waitFor();
    await card.getByText('Dirección incompleta').waitFor();
    expect(await card.getByText('Teléfono Incompleto').count()).toBe(0);
    await page.getByPlaceholder('Buscar por nombre o número de documento').fill('zzzqqq');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await page.getByText('No se encontraron resultados').waitFor();
  });
});
