import { toSearchKey } from '@vigia/contract/rules/names';
import { normaliseNid } from '@vigia/contract/rules/validation';
import { parsePatientQuery } from './patients.rules.js';

/**
 * The patient search of P14a (document prefix when the text has a digit, else name words) as SQL
 * conditions on `column` (a patient id column of the caller's query), appended to `where` with
 * their replacements in `params`. Needs `:clientId` among the params; index ranges only.
 */
export function patientSearchClauses(
  search: string | undefined | null,
  column: string,
  where: string[],
  params: Record<string, unknown>,
): void {
  if (!search?.trim()) return;
  const query = parsePatientQuery(normaliseNid(search), toSearchKey(search));
  if (query.kind === 'document') {
    where.push(`${column} IN (SELECT id FROM patients WHERE client_id = :clientId AND nid >= :nidFrom AND nid < :nidTo)`);
    Object.assign(params, { nidFrom: query.prefix, nidTo: `${query.prefix}\uffff` });
  } else if (query.kind === 'name') {
    query.words.forEach((word, i) => {
      where.push(
        `${column} IN (SELECT patient_id FROM patient_search_terms WHERE client_id = :clientId AND term >= :w${i} AND term < :wt${i})`,
      );
      Object.assign(params, { [`w${i}`]: word, [`wt${i}`]: `${word}\uffff` });
    });
  }
}
