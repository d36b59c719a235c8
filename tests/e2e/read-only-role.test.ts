import { describe, expect, it } from 'vitest';
import { selectTab } from './support/browser';
import type { Locator } from 'playwright-core';
import { createStaffSession, DEMO_PATIENT, findPatientByNid } from './support/api';
import { openSignedIn, useProductInBrowser } from './support/product';

/**
 * The read-only role (`consulta`, D13) sees every write control disabled with the reason, the same
 * answer the server gives (issue 19): it cannot type into an alert and enable 'Evolución' or
 * 'Cerrar Alerta', nor open 'Nuevo paciente' and validate a document.
 */
const CONSULTA = { email: 'consulta@demo.vigia.co', password: 'Vigia@2026' } as const;
const REASON = 'Su rol no permite realizar esta acción.';

describe('Rol de solo consulta', () => {
  const product = useProductInBrowser();

  async function api<T>(path: string): Promise<T> {
    const { token } = await createStaffSession(product.server().baseUrl);
    const res = await fetch(`${product.server().baseUrl}/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** A disabled control whose tooltip (on hover) gives the role's reason. */
  async function expectDisabledWithReason(control: Locator): Promise<void> {
    await expect.poll(() => control.isDisabled(), { timeout: 10_000 }).toBe(true);
    // Under load a single hover can land before the tooltip's handlers: hover again until it shows.
    const tooltip = control.page().getByRole('tooltip').filter({ hasText: REASON }).first();
    await expect
      .poll(
        async () => {
          await control.page().mouse.move(0, 0);
          await control.hover({ force: true });
          return tooltip.isVisible();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    await control.page().mouse.move(0, 0);
  }

  it("cannot handle an open alert: the entry box, 'Evolución' and 'Cerrar Alerta' stay disabled and say why", async () => {
    const [open] = await api<Array<{ id: number; patient: { id: number } }>>('/reports/client_alerts_list?status=active&per_page=1');
    expect(open, 'the demo has an open alert').toBeTruthy();
    const page = await openSignedIn(product, `/patients/${open.patient.id}/alerts/${open.id}`, CONSULTA);

    const entry = page.getByRole('textbox', { name: 'Nueva entrada' });
    await expect.poll(() => entry.isDisabled(), { timeout: 10_000 }).toBe(true);
    // Even text typed in some other way leaves the buttons off: the role decides, not the text.
    await entry.evaluate((el: { removeAttribute(name: string): void }) => el.removeAttribute('disabled'));
    await entry.fill('Paciente contactado, refiere estar bien.').catch(() => undefined);
    await expectDisabledWithReason(page.getByRole('button', { name: 'Evolución' }));
    await expectDisabledWithReason(page.getByRole('button', { name: 'Cerrar Alerta' }));
    await page.getByText(REASON).first().waitFor();
  });

  it("cannot start 'Nuevo paciente' nor validate a document", async () => {
    const page = await openSignedIn(product, '/patients', CONSULTA);
    await expectDisabledWithReason(page.getByRole('button', { name: 'Nuevo paciente' }));

    // The menu entry still leads to the dialog (the menu shows all items, 01 §2), where nothing can be done.
    await page.goto('/patients/new');
    const dialog = page.getByRole('dialog', { name: 'Nuevo paciente' });
    await dialog.getByText('No puede registrar pacientes').waitFor();
    await expect.poll(() => dialog.getByLabel('Número de documento').isDisabled(), { timeout: 10_000 }).toBe(true);
    await expectDisabledWithReason(dialog.getByRole('button', { name: 'Validar paciente' }));
  });

  it('sees the patient page write controls disabled with the reason', async () => {
    const { token } = await createStaffSession(product.server().baseUrl);
    const patient = await findPatientByNid(product.server().baseUrl, token, DEMO_PATIENT.nid);

    const page = await openSignedIn(product, `/patients/${patient.id}?tab=orders`, CONSULTA);
    await expectDisabledWithReason(page.getByRole('button', { name: 'Crear orden' }));
    await expectDisabledWithReason(page.getByRole('button', { name: 'Crear múltiples órdenes' }));
    await expectDisabledWithReason(page.getByRole('button', { name: 'Declarar fallecimiento' }));
    // The history the patient states for the RDA (issue 51): read, never written, by this role.
    await expectDisabledWithReason(page.getByRole('button', { name: 'Agregar alergia' }));
    await expectDisabledWithReason(page.getByRole('button', { name: 'Agregar antecedente familiar' }));

    await selectTab(page, 'Signos');
    await expectDisabledWithReason(page.getByRole('button', { name: 'Registrar medición' }));

    await selectTab(page, 'Antecedentes');
    await expect.poll(() => page.getByRole('textbox', { name: 'Buscar antecedentes' }).isDisabled(), { timeout: 10_000 }).toBe(true);
    await page.getByText(REASON).first().waitFor();
  });
});
