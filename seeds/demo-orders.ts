import type { QueryInterface, Transaction } from 'sequelize';
import type { SeedDeps } from '../api/src/seed-deps.js';
import {
  orderText,
  generateActivityTimes,
  localParts,
  addDays,
  ORDER_ELEMENT_NAMES,
  type OrderSchedule,
} from '@vigia/contract/rules/activities';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

/**
 * Demo orders (02 §3): the first active patients of each client get a running medication order
 * and a running blood-pressure order that started 10 days ago, plus one order still to manage.
 * Past activities are completed, one in five 'No reportada'; future ones are Programada.
 */
const PER_CLIENT = 6;

interface DemoOrder {
  schedule: OrderSchedule;
  fields: Record<string, unknown>;
  text: (tz: string) => string;
}

const LOSARTAN = 17;
const METFORMIN = 43;
const DEMO_ORDERS: DemoOrder[] = [
  {
    schedule: { order_type: 1, frecuency: 12, time_unit: 0, during: 30 },
    fields: {
      order_type: 1,
      medicine_id: LOSARTAN,
      frecuency: 12,
      time_unit: 0,
      during: 30,
      dose: 1,
      amount: '1',
      medication_unit: 3,
      days: '[]',
      hours: '[]',
    },
    text: () =>
      orderText({
        order_type: 1,
        frecuency: 12,
        time_unit: 0,
        during: 30,
        amount: '1',
        medication_unit: 3,
        medicine_name: 'Losartán Tableta 50 mg',
      }),
  },
  {
    schedule: { order_type: 0, frequency_type: 0, days: [0, 1, 2, 3, 4, 5, 6], hours: ['08:00', '20:00'], during: 30 },
    fields: { order_type: 0, clinical_element: 3, frequency_type: 0, during: 30, days: '[0,1,2,3,4,5,6]', hours: '["08:00","20:00"]' },
    text: () =>
      orderText({
        order_type: 0,
        frequency_type: 0,
        days: [],
        hours: ['08:00', '20:00'],
        during: 30,
        clinical_element_name: ORDER_ELEMENT_NAMES[3],
      }),
  },
];

export async function seedDemoOrders(
  deps: SeedDeps,
  qi: QueryInterface,
  now: Date,
  transaction: Transaction,
): Promise<{ orders: number; activities: number }> {
  const { insertReturningId, select } = deps.sql;
  const sequelize = qi.sequelize;
  await deps.upsertMedicines(sequelize, transaction);
  const clients = await select<{ id: number }>(sequelize, 'SELECT id FROM clients ORDER BY id', {}, transaction);
  let orders = 0;
  let activities = 0;
  for (const client of clients) {
    const [user] = await select<{ id: number }>(
      sequelize,
      "SELECT id FROM users WHERE client_id = :c AND role_name IN ('medico', 'admin') ORDER BY role_name DESC, id LIMIT 1",
      { c: client.id },
      transaction,
    );
    const patients = await select<{ id: number; time_zone: string }>(
      sequelize,
      `SELECT id, time_zone FROM patients WHERE client_id = :c AND status = ${PATIENT_STATUS.active} ORDER BY id LIMIT :n`,
      { c: client.id, n: PER_CLIENT },
      transaction,
    );
    for (const [index, p] of patients.entries()) {
      const startDate = addDays(localParts(now, p.time_zone).date, -10);
      for (const o of DEMO_ORDERS) {
        const times = generateActivityTimes(o.schedule, { date: startDate, time: '08:00' }, p.time_zone);
        const id = await insertReturningId(
          sequelize,
          `INSERT INTO orders (client_id, patient_id, user_id, order_type, status, notify, permanent, clinical_element, medicine_id, frecuency, time_unit, during,
             dose, amount, medication_unit, frequency_type, days, hours, start_at, to_human, generated_until, created_at, updated_at)
           VALUES (:client, :patient, :user, :order_type, 2, :notify, :no, :clinical_element, :medicine_id, :frecuency, :time_unit, :during,
             :dose, :amount, :medication_unit, :frequency_type, :days, :hours, :start, :text, :until, :created, :created) RETURNING id`,
          {
            clinical_element: null,
            medicine_id: null,
            frecuency: null,
            time_unit: null,
            dose: null,
            amount: null,
            medication_unit: null,
            frequency_type: null,
            ...o.fields,
            client: client.id,
            patient: p.id,
            user: user?.id ?? null,
            notify: true,
            no: false,
            start: times[0],
            text: o.text(p.time_zone),
            until: times.at(-1),
            created: new Date(times[0].getTime() - 86_400_000),
          },
          transaction,
        );
        const rows = times.map((at, i) => {
          const past = at.getTime() + 3600_000 <= now.getTime();
          const current = !past && at.getTime() <= now.getTime();
          const status = past ? ((i + index) % 5 === 4 ? 6 : 2) : current ? 1 : 0;
          return {
            client_id: client.id,
            patient_id: p.id,
            order_id: id,
            slot_at: at,
            programmed_at: at,
            status,
            completed_at: status === 2 ? new Date(at.getTime() + 10 * 60_000) : null,
            reminded_at: past || current ? at : null,
            created_at: now,
            updated_at: now,
          };
        });
        for (let i = 0; i < rows.length; i += 200) await qi.bulkInsert('activities', rows.slice(i, i + 200), { transaction });
        orders += 1;
        activities += rows.length;
      }
      if (index === 0) {
        // One glucose order still to manage ('Órdenes por programar').
        await insertReturningId(
          sequelize,
          `INSERT INTO orders (client_id, patient_id, user_id, order_type, status, notify, permanent, clinical_element, during, frequency_type, days, hours, to_human, created_at, updated_at)
           VALUES (:client, :patient, :user, 0, 0, :yes, :no, 6, 14, 0, '[0,1,2,3,4,5,6]', '["07:00"]', :text, :now, :now) RETURNING id`,
          {
            client: client.id,
            patient: p.id,
            user: user?.id ?? null,
            yes: true,
            no: false,
            now,
            text: orderText({
              order_type: 0,
              frequency_type: 0,
              days: [],
              hours: ['07:00'],
              during: 14,
              clinical_element_name: ORDER_ELEMENT_NAMES[6],
            }),
          },
          transaction,
        );
        await insertReturningId(
          sequelize,
          `INSERT INTO orders (client_id, patient_id, user_id, order_type, status, notify, permanent, medicine_id, frecuency, time_unit, during, dose, amount, medication_unit, days, hours, to_human, created_at, updated_at)
           VALUES (:client, :patient, :user, 1, 0, :yes, :yes, :med, 24, 0, 30, 1, '1', 3, '[]', '[]', :text, :now, :now) RETURNING id`,
          {
            client: client.id,
            patient: p.id,
            user: user?.id ?? null,
            yes: true,
            med: METFORMIN,
            now,
            text: orderText({
              order_type: 1,
              frecuency: 24,
              time_unit: 0,
              during: 30,
              amount: '1',
              medication_unit: 3,
              medicine_name: 'Metformina Tableta 850 mg',
            }),
          },
          transaction,
        );
        orders += 2;
      }
    }
  }
  return { orders, activities };
}
