import { QueryTypes, type QueryInterface, type Transaction } from 'sequelize';
import type { SeedDeps } from '../api/src/seed-deps.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

/**
 * Demo inventory for every demo client: supplies (vaccines and devices), batches with their entry
 * moves, and a few vaccinations already applied (encounters 'Realizado' with their 'aplicacion'
 * moves), so Inventario, Movimientos and Ver Lote show real data.
 */
const SUPPLIES = [
  { type: 'biologico', tradename: 'VAXIGRIP TETRA', generic_name: 'INFLUENZA', invima_register: 'INVIMA 2020M-0019586' },
  { type: 'biologico', tradename: 'INFLUVAC TETRA', generic_name: 'INFLUENZA', invima_register: 'INVIMA 2019M-0018997' },
  { type: 'biologico', tradename: 'COMIRNATY', generic_name: 'COVID-19', invima_register: 'INVIMA 2021MBT-0000001' },
  { type: 'biologico', tradename: 'PREVENAR 13', generic_name: 'NEUMOCOCO', invima_register: 'INVIMA 2010M-0011085' },
  { type: 'dispositivo', tradename: 'TENSIÓMETRO OMRON HEM-7120', generic_name: null, invima_register: 'INVIMA 2016DM-0014512' },
  { type: 'dispositivo', tradename: 'GLUCÓMETRO ACCU-CHEK GUIDE', generic_name: null, invima_register: 'INVIMA 2018DM-0018121' },
] as const;

/** [supply index, serial suffix, months to expiry, quantity]. */
const BATCHES: Array<[number, string, number, number]> = [
  [0, 'VXT24A01', 8, 40],
  [0, 'VXT24B02', 2, 6],
  [1, 'IFV24C01', 10, 25],
  [2, 'CMN24D01', 5, 12],
  [3, 'PRV24E01', 14, 3],
  [4, 'OMR7120A', 36, 8],
  [5, 'ACG00001', 24, 5],
];

const addMonths = (d: Date, months: number) => {
  const x = new Date(d);
  x.setUTCMonth(x.getUTCMonth() + months);
  return x.toISOString().slice(0, 10);
};

export async function seedDemoInventory(deps: SeedDeps, qi: QueryInterface, now: Date, transaction: Transaction): Promise<void> {
  const { insertReturningId } = deps.sql;
  const sequelize = qi.sequelize;
  const clients = await sequelize.query<{ id: number }>('SELECT id FROM clients ORDER BY id', { type: QueryTypes.SELECT, transaction });
  for (const [ci, client] of clients.entries()) {
    const [nurse] = await sequelize.query<{ id: number }>(
      "SELECT id FROM users WHERE client_id = :cid ORDER BY CASE role_name WHEN 'enfermeria' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, id LIMIT 1",
      { type: QueryTypes.SELECT, replacements: { cid: client.id }, transaction },
    );
    const supplyIds: number[] = [];
    for (const s of SUPPLIES) {
      supplyIds.push(
        await insertReturningId(
          sequelize,
          `INSERT INTO supplies (client_id, type, tradename, generic_name, invima_register, date_register, active, created_at, updated_at)
         VALUES (:cid, :type, :tradename, :generic_name, :invima_register, :date_register, :active, :now, :now) RETURNING id`,
          { cid: client.id, ...s, date_register: '2020-01-15', active: true, now },
          transaction,
        ),
      );
    }
    const stockIds: number[] = [];
    for (const [si, suffix, months, qty] of BATCHES) {
      const serial = `C${ci + 1}${suffix}`.padEnd(16, '0').slice(0, 16);
      const type = SUPPLIES[si].type;
      const id = await insertReturningId(
        sequelize,
        `INSERT INTO stocks (client_id, serial, type, medical_supply_id, expiration_date, cuantity, active, batch, created_at, updated_at)
         VALUES (:cid, :serial, :type, :sid, :exp, :qty, :active, :batch, :now, :now) RETURNING id`,
        {
          cid: client.id,
          serial,
          type,
          sid: supplyIds[si],
          exp: addMonths(now, months),
          qty,
          active: true,
          batch: type === 'biologico',
          now,
        },
        transaction,
      );
      stockIds.push(id);
      await qi.bulkInsert(
        'moves',
        [
          {
            client_id: client.id,
            stock_id: id,
            type: 'entrada',
            amount: qty,
            notes: 'Cantidad inicial',
            author: nurse?.id ?? null,
            encounter_id: null,
            created_at: new Date(now.getTime() - 20 * 86_400_000),
          },
        ],
        { transaction },
      );
    }
    // Three applied influenza doses from the first batch, on the client's first patients.
    const patients = await sequelize.query<{ id: number; first_name: string; last_name: string }>(
      `SELECT id, first_name, last_name FROM patients WHERE client_id = :cid AND status <> ${PATIENT_STATUS.deceased} ORDER BY id LIMIT 3`,
      { type: QueryTypes.SELECT, replacements: { cid: client.id }, transaction },
    );
    for (const [pi, p] of patients.entries()) {
      const at = new Date(now.getTime() - (pi + 1) * 3 * 86_400_000);
      const encounterId = await insertReturningId(
        sequelize,
        `INSERT INTO encounters (client_id, patient_id, kind, status, checkout, responsible, created_by, medication_id, stock_id, dose,
           vaccination_card, created_at, updated_at)
         VALUES (:cid, :pid, 'vaccination', 'Realizado', :at, :uid, :uid, :mid, :sid, 'Dosis anual', :card, :at, :at) RETURNING id`,
        { cid: client.id, pid: p.id, at, uid: nurse?.id ?? null, mid: supplyIds[0], sid: stockIds[0], card: pi % 2 === 0 },
        transaction,
      );
      await qi.bulkInsert(
        'moves',
        [
          {
            client_id: client.id,
            stock_id: stockIds[0],
            type: 'aplicacion',
            amount: 1,
            notes: `Aplicación a ${p.first_name} ${p.last_name}`,
            author: nurse?.id ?? null,
            encounter_id: encounterId,
            created_at: at,
          },
        ],
        { transaction },
      );
      await sequelize.query('UPDATE stocks SET cuantity = cuantity - 1 WHERE id = :id', { replacements: { id: stockIds[0] }, transaction });
    }
  }
}
