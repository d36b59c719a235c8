import { describe, expect, it } from 'vitest';
import { narrativeLines, readRdaBundle } from './rda-document';

const div = (...lines: string[]) => `<div xmlns="http://www.w3.org/1999/xhtml">${lines.map((l) => `<p>${l}</p>`).join('')}</div>`;

const BUNDLE = {
  resourceType: 'Bundle',
  type: 'document',
  entry: [
    {
      fullUrl: 'urn:uuid:c1',
      resource: {
        resourceType: 'Composition',
        title: 'Resumen Digital de Atención - Declaración del paciente',
        date: '2026-12-05T09:00:00Z',
        subject: { reference: 'urn:uuid:p1' },
        author: [{ reference: 'urn:uuid:u1' }],
        custodian: { reference: 'urn:uuid:o1' },
        section: [
          {
            title: 'Historial de alergias, intolerancias y reacciones adversas',
            text: { div: div('Penicilina &amp; derivados', 'Polen') },
          },
          { title: 'Historial de medicamentos', text: { div: div('Losartán 50 mg cada 12 horas') } },
        ],
      },
    },
    {
      fullUrl: 'urn:uuid:p1',
      resource: {
        resourceType: 'Patient',
        identifier: [{ type: { coding: [{ code: 'CC' }] }, value: '52987654' }],
        name: [{ given: ['Ana', 'María'], family: 'Pérez' }],
      },
    },
    { fullUrl: 'urn:uuid:u1', resource: { resourceType: 'Practitioner', name: [{ text: 'Laura Gómez' }] } },
    { fullUrl: 'urn:uuid:o1', resource: { resourceType: 'Organization', name: 'IPS Vigía' } },
  ],
};

describe('readRdaBundle', () => {
  it('reads the heading and each section as titled lines, not JSON', () => {
    const doc = readRdaBundle(BUNDLE, (iso) => `fecha ${iso.slice(0, 10)}`);
    expect(doc.title).toBe('Resumen Digital de Atención - Declaración del paciente');
    expect(doc.facts).toEqual([
      { label: 'Fecha del documento', value: 'fecha 2026-12-05' },
      { label: 'Paciente', value: 'Ana María Pérez · CC 52987654' },
      { label: 'Autor', value: 'Laura Gómez' },
      { label: 'Prestador', value: 'IPS Vigía' },
    ]);
    expect(doc.sections).toEqual([
      { title: 'Historial de alergias, intolerancias y reacciones adversas', lines: ['Penicilina & derivados', 'Polen'] },
      { title: 'Historial de medicamentos', lines: ['Losartán 50 mg cada 12 horas'] },
    ]);
  });

  it('answers nothing readable for a Bundle without a Composition', () => {
    expect(readRdaBundle({ entry: [] }, String)).toEqual({ title: null, facts: [], sections: [] });
    expect(readRdaBundle(null, String)).toEqual({ title: null, facts: [], sections: [] });
  });
});

describe('narrativeLines', () => {
  it('splits paragraphs and list items, and keeps a bare text as one line', () => {
    expect(narrativeLines('<div><ul><li>Uno</li><li>Dos &lt;3&gt;</li></ul></div>')).toEqual(['Uno', 'Dos <3>']);
    expect(narrativeLines('<div>Solo texto</div>')).toEqual(['Solo texto']);
    expect(narrativeLines(undefined)).toEqual([]);
  });
});
