import { readSession } from '../../session';

export { formatWhen, formatDay } from '@vigia/contract/rules/dates';

/** The zone staff screens show times in when no patient is involved: the signed-in user's (D5, P71). */
export function staffTimeZone(): string {
  return readSession()?.time_zone || 'America/Bogota';
}
