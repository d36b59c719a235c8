import { LOINC, type Json } from './rda.profiles';

/**
 * A composition section as both RDA compositions want it: the title and LOINC code the profile
 * fixes, a narrative (their Composition.text is 0..0), and either entries or the emptyReason the
 * profile fixes (`nilknown`).
 */

export interface SectionDef {
  title: string;
  code: string;
  display: string;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An XHTML narrative: one paragraph per line. */
export function narrative(lines: string[]): Json {
  const body = lines.map((l) => `<p>${escapeXml(l)}</p>`).join('');
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${body}</div>` };
}

const NIL_KNOWN: Json = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/list-empty-reason', code: 'nilknown', display: 'Nil Known' }],
};

export function sectionOf(s: SectionDef, lines: string[], entries: string[]): Json {
  return {
    title: s.title,
    code: { coding: [{ system: LOINC, code: s.code, display: s.display }] },
    text: narrative(lines),
    ...(entries.length ? { entry: entries.map((reference) => ({ reference })) } : { emptyReason: NIL_KNOWN }),
  };
}

export const urn = (uuid: string) => `urn:uuid:${uuid}`;
