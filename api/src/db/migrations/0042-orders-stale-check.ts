import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * The stale-data check ('Sin datos de … en las últimas N horas', D11) looked at 500 running
 * vital-sign orders a minute, with no order and no cursor: an order that was not stale stayed a
 * candidate, so with more than 500 of them the same 500 were examined every minute and the others
 * never (at 100,000 patients, a patient who stopped reporting got no alert). `stale_check_at` is the
 * earliest moment the order could be stale, from what the last check saw (its first activity, or
 * its last reading, plus the order's interval); the check takes the orders due, oldest first. A new
 * column holds the epoch: every order is due once.
 */
const INDEX = 'orders_stale_check';

export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.addColumn('orders', 'stale_check_at', { type: DataTypes.DATE, allowNull: false, defaultValue: new Date(0) });
  // Partial, over exactly the orders the check reads (running vital-sign orders not yet alerted:
  // order_type 0, status 2 when this was written): a plain (order_type, status, …) index was taken
  // by the readings' stale reset and the summary job's orders read instead of their patient index
  // (tests/api/ingest-plans.test.ts), which would scan every measurement order at scale.
  await qi.sequelize.query(
    `CREATE INDEX ${INDEX} ON orders (stale_check_at) WHERE order_type = 0 AND status = 2 AND stale_alerted_at IS NULL`,
  );
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeIndex('orders', INDEX);
  await qi.removeColumn('orders', 'stale_check_at');
}
