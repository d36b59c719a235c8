import type { Sequelize } from 'sequelize';
import { execute } from '../../db/sql.js';
import type { components } from '@vigia/contract/openapi';

/**
 * A user's notification preferences: the users table's own columns, written only here (issue 40:
 * one writer per table; 'Mis notificaciones' calls this instead of updating users itself).
 */

/** The staff channels, as the contract names them (SMS reaches patients only, never staff). */
export type StaffChannel = Exclude<components['schemas']['NotificationChannel'], 'sms'>;
/** Each staff channel has one preference column, `media_<channel>`: a new channel is one more column. */
export const STAFF_CHANNELS = ['email', 'whatsapp'] as const satisfies readonly StaffChannel[];
export const preferenceColumn = (channel: StaffChannel) => `media_${channel}` as const;

/** Every preference column, channels first (the contract's MyNotificationsInput has the same). */
export const PREFERENCE_FLAGS = [...STAFF_CHANNELS.map(preferenceColumn), 'priority_high', 'priority_medium', 'priority_low'] as const;
export type PreferenceFlag = keyof components['schemas']['MyNotificationsInput'];

/** Writes the preferences given (the columns come from PREFERENCE_FLAGS, never from the input's keys). */
export async function writeNotificationPreferences(
  sequelize: Sequelize,
  clientId: number,
  userId: number,
  input: Partial<Record<PreferenceFlag, boolean>>,
  now: Date,
): Promise<void> {
  const sent = PREFERENCE_FLAGS.filter((f) => typeof input[f] === 'boolean');
  if (!sent.length) return;
  const values: Record<string, unknown> = { userId, clientId, now };
  for (const f of sent) values[f] = input[f];
  await execute(
    sequelize,
    `UPDATE users SET ${sent.map((f) => `${f} = :${f}`).join(', ')}, updated_at = :now WHERE id = :userId AND client_id = :clientId`,
    values,
  );
}
