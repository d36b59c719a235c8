import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Break-glass accounts (issue 49): where staff sign in through the organisation's identity provider,
 * Vigía's own password is refused, except for the accounts an administrator marks here (an
 * emergency way in when the provider is down). False for every existing user.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.addColumn('users', 'break_glass', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeColumn('users', 'break_glass');
}
