import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { components } from '@vigia/contract/openapi';
import { apiCall, createStaffSession } from './support/api';
import { closeToasts, SCREENSHOT_DIR } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';

type Patient = components['schemas']['Patient'];
type User = components['schemas']['User'];
type Client = components['schemas']['Client'];

/** Kept for a person to look at (tests/e2e/.screenshots/rda-data-forms-*.png). */
async function snapshot(page: Page, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `rda-data-forms-${name}.png`), fullPage: true });
}

/** One part of the screen at its real size (a whole phone page shrinks too far to judge). */
async function snapshotOf(part: Locator, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await part.screenshot({ path: path.join(SCREENSHOT_DIR, `rda-data-forms-${name}.png`) });
}

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Chooses `option` of the select labelled `label` inside `scope`, typing `search` first when given. */
async function pick(page: Page, scope: Locator, label: string, option: string | RegExp, search?: string) {
  const input = scope.getByLabel(label, { exact: true });
  await input.scrollIntoViewIfNeeded();
  await input.click({ force: true });
  if (search) await input.fill(search);
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  const choice =
    typeof option === 'string' ? options.and(page.locator(`[title="${option}"]`)) : options.filter({ hasText: option }).first();
  await choice.waitFor({ state: 'visible' });
  await choice.click({ force: true });
}

/** Issue 51: the data the RDA needs of its parties, typed in the staff app's forms. */
describe('Datos para el RDA (patient, user, institution forms)', () => {
  const product = useProductInBrowser();

  it("fills the patient's RDA data in 'Editar datos básicos' and shows it on the card (1440 × 900)", { timeout: 180_000 }, async () => {
    const base = product.server().baseUrl;
    const token = (await createStaffSession(base)).token;
    const page = await openSignedIn(product, '/patients/9');
    await page.setViewportSize(WIDE);
    await page.getByRole('button', { name: 'Editar datos básicos' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar datos básicos' });
    await dialog.getByRole('heading', { name: 'Datos para el RDA (Resolución 1888)' }).waitFor({ state: 'visible' });
    await pick(page, dialog, 'Sexo biológico', 'Mujer');
    await pick(page, dialog, 'Identidad de género', 'Femenino');
    await pick(page, dialog, 'Zona de residencia', 'Rural');
    await pick(page, dialog, 'Nacionalidad', 'Colombia', 'colom');
    await pick(page, dialog, 'Etnia', 'Indigena');
    await dialog.getByLabel('Comunidad étnica').fill('Wayuu');
    // 'Sin discapacidad' stands alone: it replaces a disability, and a disability replaces it.
    await pick(page, dialog, 'Discapacidad', 'Discapacidad visual');
    await pick(page, dialog, 'Discapacidad', 'Sin discapacidad');
    const chosen = dialog.locator('.ant-select-selection-item-content');
    await expect.poll(() => chosen.allTextContents()).toEqual(['Sin discapacidad']);
    await pick(page, dialog, 'Discapacidad', 'Discapacidad física');
    await expect.poll(() => chosen.allTextContents()).toEqual(['Discapacidad física']);
    await page.keyboard.press('Escape');
    await expectAccessible(page);
    await snapshot(page, 'wide-patient-form');
    await snapshotOf(dialog, 'wide-patient-dialog');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await closeToasts(page);

    const stored = await apiCall<Patient>(base, token, 'GET', '/patients/9');
    expect(stored).toMatchObject({
      biological_sex: '02',
      gender_identity: '02',
      residence_zone: '02',
      nationality: '170',
      ethnicity: '1',
      ethnic_community: 'WAYUU',
      disabilities: ['01'],
    });
    const card = page.locator('.patient-card', { has: page.getByText('Datos básicos', { exact: true }) });
    await card.getByText('Indigena · WAYUU').waitFor({ state: 'visible' });
    await card.getByText('Discapacidad física').waitFor({ state: 'visible' });
    await snapshotOf(card, 'wide-patient-card');
  });

  it('registers a new patient with the RDA data (1440 × 900)', { timeout: 180_000 }, async () => {
    const base = product.server().baseUrl;
    const token = (await createStaffSession(base)).token;
    const page = await openSignedIn(product, '/patients');
    await page.setViewportSize(WIDE);
    await page.getByRole('menuitem', { name: 'Nuevo paciente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo paciente' });
    await dialog.getByLabel('Número de documento').fill('51009988');
    await dialog.getByRole('button', { name: 'Validar paciente' }).click();
    await dialog.getByText('No existe un paciente con ese documento. Puede registrarlo.').waitFor();
    await dialog.getByLabel('Nombres').fill('Rosa Elena');
    await dialog.getByLabel('Apellidos').fill('Quintero Paz');
    await pick(page, dialog, 'Género', 'Femenino');
    await pick(page, dialog, 'Ciudad', /^Bogotá, D\.C\./, 'Bogot');
    await dialog.getByLabel('Dirección').fill('Calle 26 # 68-70');
    await dialog.getByLabel('Barrio').fill('Salitre');
    await dialog.getByLabel('Teléfono').fill('3105551234');
    await dialog.getByLabel('Correo electrónico').fill('rosa.quintero@example.co');
    await pick(page, dialog, 'Sexo biológico', 'Mujer');
    await pick(page, dialog, 'Zona de residencia', 'Urbana');
    await pick(page, dialog, 'Discapacidad', 'Sin discapacidad');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/v1/patients') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    const { id } = (await (await created).json()) as { id: number };
    await page.waitForURL(/\/patients\/\d+$/);
    const stored = await apiCall<Patient>(base, token, 'GET', `/patients/${id}`);
    expect(stored).toMatchObject({ biological_sex: '02', residence_zone: '01', disabilities: ['08'], ethnicity: null });
  });

  it("fills a user's document, RETHUS profession and registration (1440 × 900)", { timeout: 180_000 }, async () => {
    const base = product.server().baseUrl;
    const token = (await createStaffSession(base)).token;
    const page = await openSignedIn(product, '/users');
    await page.setViewportSize(WIDE);
    await page.getByRole('button', { name: 'Crear usuario' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nuevo usuario' });
    await dialog.getByLabel('Nombres', { exact: true }).fill('Camilo Andrés');
    await dialog.getByLabel('Apellidos', { exact: true }).fill('Rincón Vega');
    await dialog.getByLabel('Correo electrónico', { exact: true }).fill('camilo.rincon@demo.vigia.co');
    await dialog.getByLabel('Contraseña', { exact: true }).fill('Medico@2026');
    await dialog.getByLabel('Confirmar contraseña').fill('Medico@2026');
    await dialog.getByLabel('Teléfono (Whatsapp)').fill('3015550101');
    await pick(page, dialog, 'Ciudad', 'Medellín', 'medell');
    await pick(page, dialog, 'Rol', 'Médico', 'Méd');
    await pick(page, dialog, 'Tipo de documento', 'Cédula de ciudadanía');
    await dialog.getByLabel('Número de documento', { exact: true }).fill('80123456');
    await pick(page, dialog, 'Profesión (RETHUS)', 'Medicina (código 003)', 'medicina');
    await dialog.getByLabel('Número de registro RETHUS').fill('RM-55201');
    await expectAccessible(page);
    await snapshotOf(dialog, 'wide-user-dialog');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/v1/users') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    const { id } = (await (await created).json()) as { id: number };
    await page.getByText('Usuario creado').first().waitFor({ state: 'visible' });
    const stored = await apiCall<User>(base, token, 'GET', `/users/${id}`);
    expect(stored).toMatchObject({ id_type: 1, nid: '80123456', profession: '003', rethus_number: 'RM-55201' });
  });

  it("fills the institution's data and its sites, the server's 400 under its field (1440 × 900)", { timeout: 180_000 }, async () => {
    const base = product.server().baseUrl;
    const session = await createStaffSession(base);
    const page = await openSignedIn(product, '/integrations');
    await page.setViewportSize(WIDE);
    // The address the teleconsultation's gaps link to (INSTITUTION_RDA_PATH).
    await page.goto('/integrations#institucion-rda');
    const card = page.locator('#institucion-rda');
    await card.getByRole('heading', { name: 'Sedes' }).waitFor({ state: 'visible' });
    // Not a NIT: the API refuses it, and its message shows under 'NIT'.
    await card.getByLabel('NIT').fill('12A');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await card.getByText('Escriba el NIT sin dígito de verificación: solo números, entre 6 y 10 dígitos').waitFor({ state: 'visible' });
    await closeToasts(page);
    await card.getByLabel('NIT').fill('900123456');
    // Changed, the field no longer says the server's message.
    await card.getByText('Escriba el NIT sin dígito de verificación: solo números, entre 6 y 10 dígitos').waitFor({ state: 'detached' });
    await card.getByLabel('Código REPS del prestador').fill('110010123401');
    await pick(page, card, 'Clase de prestador', 'Institución Prestadora de Servicios de Salud');
    await pick(page, card, 'Naturaleza jurídica', 'Privada');
    await pick(page, card, 'Nivel de atención', 'Nivel II');
    await card.getByLabel('Dirección').first().fill('Calle 100 # 19-61');
    await pick(page, card.locator('.ant-row').first(), 'Municipio', /^Bogotá, D\.C\./, 'Bogot');
    // The demo organisation has its sede (seeds/demo.ts: Sede Chapinero); two more are added and one removed.
    await card.getByRole('group', { name: 'Sede 1' }).getByLabel('Nombre').waitFor({ state: 'visible' });
    await card.getByRole('button', { name: 'Agregar sede' }).click();
    await card.getByRole('button', { name: 'Agregar sede' }).click();
    const added = card.getByRole('group', { name: 'Sede 2' });
    await added.getByLabel('Nombre').fill('Sede Norte');
    await added.getByLabel('Código REPS de la sede').fill('110010123402');
    await added.getByLabel('Dirección').fill('Carrera 13 # 60-20');
    await card.getByRole('group', { name: 'Sede 3' }).getByRole('button', { name: 'Quitar sede' }).click();
    await expect.poll(() => card.getByRole('group').count()).toBe(2);
    await expectAccessible(page);
    await snapshot(page, 'wide-institution');
    await snapshotOf(card, 'wide-institution-card');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Datos de la institución guardados').first().waitFor({ state: 'visible' });

    const stored = await apiCall<Client>(base, session.token, 'GET', `/clients/${session.client_id}`);
    expect(stored).toMatchObject({
      nit: '900123456',
      reps_code: '110010123401',
      provider_class: 'IPS',
      legal_nature: 'PRIV',
      care_level: '2',
      // The API keeps addresses upper-cased, as it does the patients'.
      address: 'CALLE 100 # 19-61',
    });
    expect(stored.city_id).not.toBeNull();
    expect(stored.sites).toEqual([
      expect.objectContaining({ name: expect.stringMatching(/^sede chapinero$/i), reps_site_code: '110010123401' }),
      expect.objectContaining({
        name: expect.stringMatching(/^sede norte$/i),
        reps_site_code: '110010123402',
        address: expect.stringMatching(/^carrera 13 # 60-20$/i),
      }),
    ]);
  });

  it('opens each form at 390 × 844 with nothing cut and axe clean', { timeout: 180_000 }, async () => {
    const page = await openSignedIn(product, '/patients/10');
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Editar datos básicos' }).click();
    const patient = page.getByRole('dialog', { name: 'Editar datos básicos' });
    const section = patient.getByRole('heading', { name: 'Datos para el RDA (Resolución 1888)' });
    await section.scrollIntoViewIfNeeded();
    await pick(page, patient, 'Etnia', 'Otras etnias');
    await patient.getByLabel('Comunidad étnica').waitFor({ state: 'visible' });
    await expectAccessible(page);
    await snapshotOf(patient, 'phone-patient-dialog');
    await patient.getByRole('button', { name: 'Cancelar' }).click();

    await page.goto('/users');
    await page.getByRole('button', { name: 'Crear usuario' }).click();
    const user = page.getByRole('dialog', { name: 'Nuevo usuario' });
    await user.getByLabel('Número de registro RETHUS').scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await snapshotOf(user, 'phone-user-dialog');

    await page.goto('/integrations#institucion-rda');
    const card = page.locator('#institucion-rda');
    await card.getByRole('heading', { name: 'Sedes' }).waitFor({ state: 'visible' });
    await card.getByRole('button', { name: 'Agregar sede' }).click();
    await expectAccessible(page);
    await snapshot(page, 'phone-institution');
    await snapshotOf(card, 'phone-institution-card');
  });
});
