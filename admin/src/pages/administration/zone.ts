/** @deprecated Import staffTimeZone from session.ts and the formats from @vigia/contract/rules/dates; kept for the patient record. */
export { staffTimeZone } from '../../session';
export { formatWhen, formatDay } from '@vigia/contract/rules/dates';
