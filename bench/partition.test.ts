import { describe, expect, it } from 'vitest';
import { monthlyPartitions, partitionedIndex } from './partition.js';

describe('monthlyPartitions', () => {
  it.each([
    {
      why: 'one month, none ahead',
      first: '2026-11-03T10:00:00Z',
      last: '2026-11-21T12:00:00Z',
      ahead: 0,
      names: ['m_2026_11'],
      bounds: [['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z']],
    },
    {
      why: 'across a new year, two months ahead',
      first: '2026-11-30T23:59:59Z',
      last: '2026-12-01T00:00:00Z',
      ahead: 2,
      names: ['m_2026_11', 'm_2026_12', 'm_2027_01', 'm_2027_02'],
      bounds: [
        ['2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
        ['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
        ['2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
        ['2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z'],
      ],
    },
  ])('$why', ({ first, last, ahead, names, bounds }) => {
    const parts = monthlyPartitions('m', new Date(first), new Date(last), ahead);
    expect(parts.map((p) => p.name)).toEqual(names);
    expect(parts.map((p) => [p.from, p.to])).toEqual(bounds);
  });

  it('a year of readings gives thirteen months and the two ahead, each starting where the last ended', () => {
    const parts = monthlyPartitions('m', new Date('2025-11-21T12:00:00Z'), new Date('2026-11-21T12:00:00Z'), 2);
    expect(parts).toHaveLength(15);
    for (let i = 1; i < parts.length; i++) expect(parts[i].from).toBe(parts[i - 1].to);
  });

  it('refuses a range that ends before it starts', () => {
    expect(() => monthlyPartitions('m', new Date('2026-02-01'), new Date('2026-01-01'), 0)).toThrow();
  });
});

describe('partitionedIndex', () => {
  it.each([
    {
      why: 'a unique index gets the partition key',
      def: 'CREATE UNIQUE INDEX measurements_device_reading ON public.measurements USING btree (device_id, reading_id, clinical_element)',
      unique: true,
      out: 'CREATE UNIQUE INDEX measurements_device_reading ON public.measurements USING btree (device_id, reading_id, clinical_element, "when")',
    },
    {
      why: 'the primary key gets it too',
      def: 'CREATE UNIQUE INDEX measurements_pkey ON public.measurements USING btree (id)',
      unique: true,
      out: 'CREATE UNIQUE INDEX measurements_pkey ON public.measurements USING btree (id, "when")',
    },
    {
      why: 'a unique index that holds it already is kept',
      def: 'CREATE UNIQUE INDEX x ON public.measurements USING btree (patient_id, "when")',
      unique: true,
      out: 'CREATE UNIQUE INDEX x ON public.measurements USING btree (patient_id, "when")',
    },
    {
      why: 'a partial unique index: the key goes in the columns, not in its WHERE',
      def: 'CREATE UNIQUE INDEX x ON public.measurements USING btree (device_id, reading_id) WHERE (reading_id IS NOT NULL)',
      unique: true,
      out: 'CREATE UNIQUE INDEX x ON public.measurements USING btree (device_id, reading_id, "when") WHERE (reading_id IS NOT NULL)',
    },
    {
      why: 'other indexes are kept as they are',
      def: 'CREATE INDEX measurements_patient_when ON public.measurements USING btree (patient_id, "when", id)',
      unique: false,
      out: 'CREATE INDEX measurements_patient_when ON public.measurements USING btree (patient_id, "when", id)',
    },
  ])('$why', ({ def, unique, out }) => {
    expect(partitionedIndex(def, unique)).toBe(out);
  });
});
