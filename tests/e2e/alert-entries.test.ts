import { describe, expect, it } from 'vitest';
import { createStaffSession, apiCall } from './support/api';
import { SCREENSHOT_DIR } from './support/browser';
import { openSignedIn, useProductInBrowser } from './support/product';
import { openDatabase } from '../../api/src/db/database';
import { writeTransaction } from '../../api/src/db/sql';
import { escalateAlert } from '../../api/src/modules/alerts/alerts.escalate';
import { escalationEntryText } from '../../api/src/modules/notifications/notifications.rules';

/**
 * Issue 41: the automatic entry's author is stored as 'Vigía' and was shown as 'vigía' (CSS
 * lower-case). An alert is escalated by the alerts module's own operation on the running
 * product's database (the escalation job waits at least 5 real minutes), then read where the
 * staff app shows entries: the alert's detail and the manager's 'Historial de la Alerta'.
 */
describe("Entrada automática de 'Vigía'", () => {
  const product = useProductInBrowser();

  const api = <T>(token: string, method: string, path: string, body?: unknown) =>
    apiCall<T>(product.server().baseUrl, token, method, path, body);

  /** The product's own database: the SQLite file its start-up line names, or DATABASE_URL. */
  async function productDatabase() {
    const line = /base de datos: (.+?)\)/.exec(product.server().output());
    expect(line, product.server().output()).not.toBeNull();
    const file = line![1];
    return file === 'PostgreSQL'
      ? openDatabase({ dataDir: '', databaseUrl: process.env.DATABASE_URL ?? null })
      : openDatabase({ dataDir: file.replace(/[/\\]vigia\.sqlite$/, ''), databaseUrl: null });
  }

  it("reads 'Vigía' (capital V, accent) in the alert's detail and in the manager's history", async () => {
    const { token } = await createStaffSession(product.server().baseUrl);
    const rule = await api<{ id: number }>(token, 'POST', '/alarms?owner=client', {
      name: 'Taquicardia escalada',
      clinical_element: 1,
      priority: 1,
      minimum_condition: 50,
      maximum_condition: 110,
    });
    const patient = await api<{ id: number }>(token, 'POST', '/patients', {
      id_type: 1,
      nid: '7744220001',
      first_name: 'Escalada',
      last_name: 'Paciente Vigia',
      country_id: 26,
      city_id: 2611001,
      birth_date: '1950-02-03',
      gender: 0,
      address: 'Calle 1 # 2-3',
      neighborhood: 'Centro',
      prefix: '+57',
      cellphone: '3007772201',
      email: 'escalada@example.co',
    });
    await api(token, 'PUT', `/patients/${patient.id}`, { alarm_ids: [rule.id] });
    await api(token, 'POST', `/patients/${patient.id}/measurements`, { clinical_element: 1, value: 160 });
    const [alert] = (
      await api<Array<{ id: number; alarm: { id: number } | null }>>(token, 'GET', `/patients/${patient.id}/alerts?status=1`)
    ).filter((a) => a.alarm?.id === rule.id);

    const sequelize = await productDatabase();
    try {
      const done = await writeTransaction(sequelize, (transaction) =>
        escalateAlert(sequelize, { alertId: alert.id, entryText: escalationEntryText(30), now: new Date() }, transaction),
      );
      expect(done).toBe(true);
    } finally {
      await sequelize.close();
    }

    const page = await openSignedIn(product, `/patients/${patient.id}/alerts/${alert.id}?source=management`);
    await page.setViewportSize({ width: 1440, height: 900 });
    const entry = page.locator('.alert-entries .ant-list-item').filter({ hasText: 'Alerta escalada: sin gestión en 30 minutos.' });
    await entry.waitFor();
    // innerText is the text as drawn, CSS text-transform included.
    expect(await entry.locator('.ant-list-item-meta-title').innerText()).toBe('Vigía');
    expect(await entry.getByLabel('Entrada automática').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/alert-entry-vigia.png` });

    // Closed by a user: the manager's history lists Vigía's entry, then the user's.
    await api(token, 'PUT', `/patients/${patient.id}/alerts/${alert.id}`, {
      status: 2,
      close_type: 'true_alert',
      description: 'Se llamó al paciente, ya en urgencias.',
    });
    await page.goto(`/alerts_management?id=${alert.id}`);
    await page.getByRole('tab', { name: 'Cerradas (1)' }).click();
    await page.getByRole('button', { name: 'Ver historial' }).click();
    const history = page.getByRole('dialog', { name: 'Historial de la Alerta' });
    await history.getByText('Alerta escalada: sin gestión en 30 minutos.').waitFor();
    expect(await history.locator('.ant-list-item-meta-title').allInnerTexts()).toEqual(['Vigía', 'Ana Lucía Mejía Torres']);
  });
});
