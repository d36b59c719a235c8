import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiCall, createStaffSession } from './support/api';
import { closeToasts, failReads, SCREENSHOT_DIR, waitForPath } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { expectAccessible } from './support/accessibility';

/** Kept for a person to look at (tests/e2e/.screenshots/patient-history-*.png). */
async function snapshot(page: Page, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `patient-history-${name}.png`), fullPage: true });
}

/** One part of the screen at its real size (a whole phone page shrinks too far to judge). */
async function snapshotOf(part: Locator, name: string) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await part.screenshot({ path: path.join(SCREENSHOT_DIR, `patient-history-${name}.png`) });
}

const VIEWPORTS = [
  { name: '1440 × 900', tag: 'wide', viewport: { width: 1440, height: 900 }, patientId: 6 },
  { name: '390 × 844', tag: 'phone', viewport: { width: 390, height: 844 }, patientId: 7 },
];

type Allergy = { allergy_type: string; description: string; active: boolean };
type FamilyEntry = { relationship: string; description: string; icd10: string | null };

/** A text's drawn height, its whole height and its line height, in px (the tests' TypeScript has no DOM types). */
const measure = (text: Locator) =>
  text.evaluate((e) => {
    const box = e as unknown as { clientHeight: number; scrollHeight: number };
    const style = (globalThis as unknown as { getComputedStyle(el: unknown): { lineHeight: string } }).getComputedStyle(e);
    return { shown: box.clientHeight, whole: box.scrollHeight, line: parseFloat(style.lineHeight) };
  });

const cardTitled = (page: Page, title: string): Locator =>
  page.locator('.history-card', { has: page.locator('.ant-card-head-title', { hasText: new RegExp(`^${title}$`) }) });

async function pick(page: Page, dialog: Locator, label: string, option: string) {
  await dialog.getByRole('combobox', { name: label }).click();
  await page.locator(`.ant-select-item-option[title="${option}"]`).click();
}

/** 'Alergias' and 'Antecedentes familiares' (issue 51): the history the patient states, for the RDA de paciente. */
describe('Alergias y antecedentes familiares (patient record)', () => {
  const product = useProductInBrowser();

  for (const { name, tag, viewport, patientId } of VIEWPORTS) {
    it(`adds an allergy and a family-history entry at ${name}`, { timeout: 180_000 }, async () => {
      const base = product.server().baseUrl;
      const token = (await createStaffSession(base)).token;
      const substance = `Ibuprofeno ${tag}: angioedema`;
      const condition = `Cáncer de mama ${tag} (madre)`;

      const page = await openSignedIn(product, `/patients/${patientId}`);
      await page.setViewportSize(viewport);
      const allergies = cardTitled(page, 'Alergias');
      await allergies.scrollIntoViewIfNeeded();
      await allergies.getByRole('button', { name: 'Agregar' }).waitFor({ state: 'visible' });
      await expectAccessible(page);
      await snapshot(page, `${tag}-cards`);

      await allergies.getByRole('button', { name: 'Agregar' }).click();
      const add = page.getByRole('dialog', { name: 'Agregar alergia' });
      await add.waitFor({ state: 'visible' });
      // Nothing chosen: refused in the browser, in Spanish, under each field.
      await add.getByRole('button', { name: 'Guardar' }).click();
      await add.getByText('¡El campo es requerido!').first().waitFor({ state: 'visible' });
      await pick(page, add, 'Tipo de alergia', 'Medicamento');
      await add.getByLabel('¿A qué es alérgico el paciente?').fill(substance);
      await expectAccessible(page);
      await snapshot(page, `${tag}-allergy-form`);
      await snapshotOf(add, `${tag}-allergy-dialog`);
      await add.getByRole('button', { name: 'Guardar' }).click();
      await add.waitFor({ state: 'hidden' });
      await allergies.getByText(substance).waitFor({ state: 'visible' });
      await closeToasts(page);
      const stored = await apiCall<Allergy[]>(base, token, 'GET', `/patients/${patientId}/allergies`);
      expect(stored).toContainEqual(expect.objectContaining({ allergy_type: '01', description: substance, active: true }));

      const family = cardTitled(page, 'Antecedentes familiares');
      await family.scrollIntoViewIfNeeded();
      await family.getByRole('button', { name: 'Agregar' }).click();
      const addFamily = page.getByRole('dialog', { name: 'Agregar antecedente familiar' });
      await addFamily.waitFor({ state: 'visible' });
      await pick(page, addFamily, 'Parentesco', 'Padres');
      await addFamily.getByLabel('Enfermedad del familiar').fill(condition);
      const code = addFamily.getByLabel('Código CIE-10 (opcional)');
      await code.fill('mama');
      await addFamily.getByRole('button', { name: 'Guardar' }).click();
      await addFamily.getByText('Escriba un código CIE-10 válido, por ejemplo I10X o E119').waitFor({ state: 'visible' });
      await expectAccessible(page);
      await snapshot(page, `${tag}-family-form`);
      await snapshotOf(addFamily, `${tag}-family-dialog`);
      await code.fill('c50.9');
      await addFamily.getByRole('button', { name: 'Guardar' }).click();
      await addFamily.waitFor({ state: 'hidden' });
      await family.getByText(condition).waitFor({ state: 'visible' });
      await family.getByText('CIE-10 C509').first().waitFor({ state: 'visible' });
      await closeToasts(page);
      const entries = await apiCall<FamilyEntry[]>(base, token, 'GET', `/patients/${patientId}/family_history`);
      expect(entries).toContainEqual(expect.objectContaining({ relationship: '01', description: condition, icd10: 'C509' }));
      await family.scrollIntoViewIfNeeded();
      await expectAccessible(page);
      await snapshot(page, `${tag}-saved`);
      await snapshotOf(allergies, `${tag}-allergies-card`);
      await snapshotOf(family, `${tag}-family-card`);
    });
  }

  it(
    "cuts a long clinical history at six lines, with 'Ver más' and 'Ver menos' (issue 52: no antd ellipsis)",
    { timeout: 120_000 },
    async () => {
      const base = product.server().baseUrl;
      const token = (await createStaffSession(base)).token;
      const long = Array.from({ length: 12 }, (_, i) => `Línea ${i + 1}: hipertensión arterial controlada.`).join('\n');
      await apiCall(base, token, 'PATCH', '/patients/9', { clinic_history: long });
      const page = await openSignedIn(product, '/patients/9');
      const card = page.locator('.patient-card', { has: page.locator('.ant-card-head-title', { hasText: /^Historia clínica$/ }) });
      const more = card.getByRole('button', { name: 'Ver más' });
      await more.waitFor({ state: 'visible' });
      expect(await more.getAttribute('aria-expanded')).toBe('false');
      // What the browser draws: six lines of the twelve, the rest cut (still in the page for a screen reader).
      const text = card.locator('.clamped-text');
      const drawn = await measure(text);
      expect(Math.round(drawn.shown / drawn.line)).toBe(6);
      expect(drawn.whole).toBeGreaterThan(drawn.shown);
      await expectAccessible(page);
      await more.click();
      const less = card.getByRole('button', { name: 'Ver menos' });
      await less.waitFor({ state: 'visible' });
      expect(await less.getAttribute('aria-expanded')).toBe('true');
      const open = await measure(text);
      expect(open.shown).toBe(open.whole);
      expect(Math.round(open.shown / open.line)).toBe(12);
      await snapshotOf(card, 'long-history-open');
      await less.click();
      await card.getByRole('button', { name: 'Ver más' }).waitFor({ state: 'visible' });
      // A history of two lines has nothing to show more of.
      await apiCall(base, token, 'PATCH', '/patients/9', { clinic_history: 'Hipertensión arterial.\nDiabetes tipo 2.' });
      await page.reload();
      await card.getByText('Diabetes tipo 2.').waitFor({ state: 'visible' });
      await page.waitForTimeout(300);
      expect(await card.getByRole('button', { name: /Ver (más|menos)/ }).count()).toBe(0);
    },
  );

  it('says a failed read of the allergies as failed, with Reintentar, never as none', { timeout: 120_000 }, async () => {
    const page = await openSignedIn(product, '/patients');
    await failReads(page, /\/api\/v1\/patients\/8\/allergies/);
    await page.goto('/patients/8');
    await waitForPath(page, '/patients/8');
    const allergies = cardTitled(page, 'Alergias');
    await allergies.getByText('No fue posible cargar las alergias.').waitFor({ state: 'visible' });
    await allergies.getByRole('button', { name: 'Reintentar' }).waitFor({ state: 'visible' });
    expect(await allergies.getByText('Sin alergias registradas').count()).toBe(0);
    expect(await allergies.getByRole('button', { name: 'Agregar alergia' }).isDisabled()).toBe(true);
    await cardTitled(page, 'Antecedentes familiares')
      .getByRole('button', { name: 'Agregar antecedente familiar' })
      .waitFor({ state: 'visible' });
  });
});
