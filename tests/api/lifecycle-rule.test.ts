import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { activityStatusAt, orderStatusAt } from '@vigia/contract/rules/activities';
import {
  ACTIVITY_LIFECYCLE_CASES,
  CASE_FIRST_AT,
  CASE_LAST_AT,
  CASE_PROGRAMMED_AT,
  ORDER_LIFECYCLE_CASES,
} from '@vigia/contract/rules/activities.cases';
import { execute, select } from '../../api/src/db/sql';
import { runLifecycle } from '../../api/src/modules/orders/orders.lifecycle';
import { insertActivities } from '../../api/src/modules/orders/orders.schedule';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * The lifecycle job moves statuses with SQL over whole tables (orders.lifecycle.ts); the rule it
 * applies is written once more as pure functions (activityStatusAt, orderStatusAt). Both are held
 * to one table of cases (contract/rules/activities.cases.ts): each case becomes rows, the job runs
 * at the case's instant, and the row must end where the pure function says.
 */
let t: TestProduct;
let org: Org;
let patientId: number;
const clock = new Date('2025-12-31T15:00:00Z');

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock });
  org = await createOrg(t, 'Clinica Ciclo');
  const res = await t.http
    .post('/api/v1/patients')
    .set(bearer(org.tokens.admin))
    .send(patientBody({ nid: '1044000001' }));
  expect(res.status).toBe(201);
  patientId = res.body.id;
});
afterAll(() => t.stop());

/** A medication order of its own, in the given state, with activities only where the case puts them. */
async function orderWith(status: number, permanent: boolean, activities: Array<{ at: string; status: number }>) {
  const created = await t.http
    .post(`/api/v1/patients/${patientId}/orders`)
    .set(bearer(org.tokens.medico))
    .send({ order: { order_type: 1, medicine_id: 17, frecuency: 8, time_unit: 0, during: 2, amount: '1', medication_unit: 3 } });
  expect(created.status).toBe(201);
  const id: number = created.body.id;
  // No start date: the job does not extend a permanent order without one, so only the case's rows count.
  await execute(t.sequelize, 'UPDATE orders SET status = :status, permanent = :permanent, start_at = NULL, notify = :no WHERE id = :id', {
    id,
    status,
    permanent,
    no: false,
  });
  const order = { id, client_id: org.clientId, patient_id: patientId };
  for (const a of activities) await insertActivities(t.sequelize, order, [new Date(a.at)], a.status, clock);
  return id;
}

const run = (now: string) => runLifecycle({ sequelize: t.sequelize, now: new Date(now), jobs: t.jobs, log: () => {} });

describe('the lifecycle job answers what the pure rules answer', () => {
  it.each(ACTIVITY_LIFECYCLE_CASES)('activity status %s at %s → %s', async (status, now, expected) => {
    expect(activityStatusAt(status, new Date(CASE_PROGRAMMED_AT), new Date(now))).toBe(expected);
    const orderId = await orderWith(2, false, [{ at: CASE_PROGRAMMED_AT, status }]);
    expect(await run(now)).toEqual([]);
    const [row] = await select<{ status: number }>(t.sequelize, 'SELECT status FROM activities WHERE order_id = :orderId', { orderId });
    expect(Number(row.status)).toBe(expected);
  });

  it.each(ORDER_LIFECYCLE_CASES)('order status %s at %s (permanent %s) → %s', async (status, now, permanent, expected) => {
    expect(orderStatusAt(status, new Date(CASE_FIRST_AT), new Date(CASE_LAST_AT), permanent, new Date(now))).toBe(expected);
    const orderId = await orderWith(status, permanent, [
      { at: CASE_FIRST_AT, status: 0 },
      { at: CASE_LAST_AT, status: 0 },
    ]);
    expect(await run(now)).toEqual([]);
    const [row] = await select<{ status: number }>(t.sequelize, 'SELECT status FROM orders WHERE id = :orderId', { orderId });
    expect(Number(row.status)).toBe(expected);
  });
});
