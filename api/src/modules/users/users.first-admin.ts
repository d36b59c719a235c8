import type { Transaction } from 'sequelize';
import type { Role } from '@vigia/contract/rules/access';
import { User } from '../../db/models/users.model.js';

/**
 * A new organisation's first user, inside the transaction that creates the organisation: the users
 * module writes the users table (issue 40, one writer per table); clients calls this.
 */
export async function createFirstAdmin(
  input: {
    clientId: number;
    email: string;
    passwordHash: string;
    firstName: string;
    lastName: string;
    role: Role;
    prefix: string | null;
    countryId: number;
    timeZone: string;
  },
  transaction: Transaction,
): Promise<User> {
  return User.create(
    {
      client_id: input.clientId,
      email: input.email,
      password_hash: input.passwordHash,
      first_name: input.firstName,
      last_name: input.lastName,
      role_name: input.role,
      cellphone: null,
      prefix: input.prefix,
      country_id: input.countryId,
      city_id: null,
      time_zone: input.timeZone,
    },
    { transaction },
  );
}
