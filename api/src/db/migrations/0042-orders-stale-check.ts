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
  await qi.addIndex('orders', ['order_type', 'status', 'stale_check_at'], { name: INDEX });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeIndex('orders', INDEX);
  await qi.removeColumn('orders', 'stale_check_at');
}
