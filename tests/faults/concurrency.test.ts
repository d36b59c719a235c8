import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { storeReadings } from '../support/readings';
import { bootOn, freshDatabase, onPostgres, type FaultDatabase } from './support';

/**
 * Two users doing the same thing at the same moment, as real HTTP requests fired together
 * (Promise.all). On PostgreSQL the two requests go to two app instances on one database, as two
 * servers behind a load balancer would. Each race runs several rounds; the asserts hold whoever wins.
 */

const NOW = new Date('2026-11-22T12:00:00Z');
const ROUNDS = 5;

let db: FaultDatabase;
let one: TestProduct;
/** The second user's server: another app instance on PostgreSQL, the same one on SQLite (one file, one writer). */
let two: TestProduct;
let org: Org;
let ruleId: number;

beforeAll(async () => {
  db = await freshDatabase();
  one = await bootOn(db, { now: () => NOW });
  two = onPostgres ? await bootOn(db, { now: () => NOW }) : one;
  org = await createOrg(one, 'Clinica Carrera');
  ruleId = (
    await one.http
      .post('/api/v1/alarms')
      .set(bearer(org.tokens.admin))
      .send({ name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
  ).body.id;
});
afterAll(async () => {
  if (two && two !== one) await two.stop();
  await one?.stop();
  await db?.drop();
});

async function newPatient(alarmIds: number[] = []): Promise<number> {
  const res = await one.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody());
  expect(res.status).toBe(201);
  if (alarmIds.length)
    expect((await one.http.put(`/api/v1/patients/${res.body.id}`).set(bearer(org.tokens.admin)).send({ alarm_ids: alarmIds })).status).toBe(
      200,
    );
  return res.body.id;
}

describe('closing the same alert at the same moment', () => {
  it.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))('round %i: one close wins, the other is told; no entry is lost', async () => {
    const patientId = await newPatient([ruleId]);
    await storeReadings(
      one,
      { clientId: org.clientId, patientId },
      [{ clinical_element: 1, value: 150, when: new Date(NOW.getTime() - 60_000) }],
      NOW,
    );
    const [alert] = (await one.http.get(`/api/v1/patients/${patientId}/alerts?status=1`).set(bearer(org.tokens.admin))).body;
    const url = `/api/v1/patients/${patientId}/alerts/${alert.id}`;
    const [byAdmin, byMedico, entry] = await Promise.all([
      one.http
        .put(url)
        .set(bearer(org.tokens.admin))
        .send({ status: 2, close_type: 'true_alert', description: 'Cierre del administrador' }),
      two.http.put(url).set(bearer(org.tokens.medico)).send({ status: 2, close_type: 'false_alert', description: 'Cierre de la médica' }),
      two.http.post(`${url}/alert_entries`).set(bearer(org.tokens.enfermeria)).send({ description: 'Se llama al paciente ahora' }),
    ]);
    expect([byAdmin.status, byMedico.status].sort(), JSON.stringify([byAdmin.body, byMedico.body])).toEqual([200, 409]);
    const [winner, loser] = byAdmin.status === 200 ? [byAdmin, byMedico] : [byMedico, byAdmin];
    expect(loser.body.message).toBe('La alerta ya fue cerrada.');
    // The nurse's entry either landed (201) or was refused with a message; never a 5xx.
    expect([201, 409], JSON.stringify(entry.body)).toContain(entry.status);

    const detail = (await one.http.get(url).set(bearer(org.tokens.admin))).body;
    expect(detail).toMatchObject({ status: 2, close_type: winner.body.close_type, closed_by_name: winner.body.closed_by_name });
    const texts = detail.entries.map((e: { description: string }) => e.description);
    const winnerText = winner === byAdmin ? 'Cierre del administrador' : 'Cierre de la médica';
    const loserText = winner === byAdmin ? 'Cierre de la médica' : 'Cierre del administrador';
    expect(texts).toContain(winnerText);
    expect(texts).not.toContain(loserText); // the refused close left nothing behind
    if (entry.status === 201) expect(texts).toContain('Se llama al paciente ahora');
    else expect(texts).not.toContain('Se llama al paciente ahora');
    expect(texts).toHaveLength(entry.status === 201 ? 2 : 1);
  });
});

describe('creating AI instructions for the same patient at the same moment', () => {
  it.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))('round %i: both are stored, exactly one is active', async () => {
    const patientId = await newPatient();
    const url = `/api/v1/patients/${patientId}/prompts`;
    const results = await Promise.all([
      one.http.post(url).set(bearer(org.tokens.admin)).send({ text: 'Pregunte por el dolor de cabeza.', status: 1 }),
      two.http.post(url).set(bearer(org.tokens.admin)).send({ text: 'Recuerde la toma de glucosa.', status: 1 }),
    ]);
    expect(
      results.map((r) => r.status),
      JSON.stringify(results.map((r) => r.body)),
    ).toEqual([201, 201]);
    const list = (await one.http.get(`${url}?_start=0&_end=100`).set(bearer(org.tokens.admin))).body as Array<{
      id: number;
      status: number;
      text: string;
    }>;
    expect(list.map((p) => p.id).sort()).toEqual(results.map((r) => r.body.id).sort());
    expect(list.filter((p) => p.status === 1)).toHaveLength(1);
  });
});

describe('two stock exits at the same moment that together would go below zero', () => {
  let supplyId: number;
  let serial = 0;
  beforeAll(async () => {
    supplyId = (
      await one.http
        .post('/api/v1/supplies')
        .set(bearer(org.tokens.admin))
        .send({ type: 'biologico', tradename: 'Vaxigrip Tetra', generic_name: 'Influenza', invima_register: 'INVIMA 2020M-0019' })
    ).body.id;
  });

  it.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))(
    'round %i: one is refused with the Spanish message, the stock never goes negative',
    async () => {
      const stock = await one.http
        .post('/api/v1/stocks')
        .set(bearer(org.tokens.admin))
        .send({
          type: 'biologico',
          serial: `CARRERA${String(++serial).padStart(9, '0')}`,
          medical_supply_id: supplyId,
          expiration_date: '2027-06-30',
          cuantity: 5,
        });
      expect(stock.status, JSON.stringify(stock.body)).toBe(201);
      const results = await Promise.all([
        one.http.post('/api/v1/moves').set(bearer(org.tokens.admin)).send({ type: 'salida', amount: 3, stock_id: stock.body.id }),
        two.http.post('/api/v1/moves').set(bearer(org.tokens.admin)).send({ type: 'salida', amount: 3, stock_id: stock.body.id }),
      ]);
      expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.body))).toEqual([201, 400]);
      expect(results.find((r) => r.status === 400)!.body.message).toMatch(/no puede quedar en negativo/);
      expect((await one.http.get(`/api/v1/stocks/${stock.body.id}`).set(bearer(org.tokens.admin))).body.cuantity).toBe(2);
      const exits = await one.http.get(`/api/v1/moves?stock_id=${stock.body.id}&type=salida`).set(bearer(org.tokens.admin));
      expect(exits.headers['x-total-count']).toBe('1');
    },
  );
});
