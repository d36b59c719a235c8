import type { Sequelize, Transaction } from 'sequelize';
import { execute } from '../../db/sql.js';

/** Password recovery (issue 38) stores the new hash through here: the users table has one writer. */
export async function setUserPassword(
  deps: { sequelize: Sequelize; now: () => Date },
  userId: number,
  passwordHash: string,
  transaction: Transaction,
): Promise<void> {
  await execute(
    deps.sequelize,
    'UPDATE users SET password_hash = :hash, updated_at = :now WHERE id = :id',
    {
      hash: passwordHash,
      now: deps.now(),
      id: userId,
    },
    transaction,
  );
}
