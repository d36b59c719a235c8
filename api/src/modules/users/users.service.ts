import type { Sequelize, Transaction } from 'sequelize';
import { execute } from '../../db/sql.js';
import { notFound } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { User } from '../../db/models/users.model.js';

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

/**
 * Marks or unmarks a break-glass account (issue 49): where the organisation signs in through its
 * identity provider, only these keep signing in with Vigía's password. A user of another
 * organisation is an unknown one (404); the route admits administrators only.
 */
export async function setBreakGlass(actor: StaffPrincipal, userId: number, breakGlass: boolean, now: Date): Promise<User> {
  const user = await User.findOne({ where: { id: userId, client_id: actor.clientId } });
  if (!user) throw notFound('El usuario no existe.');
  user.break_glass = breakGlass;
  user.updated_at = now;
  await user.save({ silent: true });
  return user;
}
