import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../contract';
import { fieldPath, institutionBody, institutionValues } from './institution-form';

const client = {
  nit: '900123456',
  reps_code: null,
  provider_class: '1',
  legal_nature: null,
  care_level: '2',
  address: null,
  city_id: 2611001,
  sites: [{ id: 4, name: 'Sede norte', reps_site_code: '110010123401', address: null, city_id: null, city_name: null }],
} as unknown as Schemas['Client'];

describe("'Datos de la institución para el RDA' (issue 51)", () => {
  it('starts from the stored data, blanks as empty inputs', () => {
    expect(institutionValues(client)).toEqual({
      nit: '900123456',
      reps_code: '',
      provider_class: '1',
      legal_nature: null,
      care_level: '2',
      address: '',
      city_id: 2611001,
      sites: [{ id: 4, name: 'Sede norte', reps_site_code: '110010123401', address: '', city_id: null }],
    });
  });

  it('sends trimmed text, null for blanks and the whole list of sites, kept ones with their id', () => {
    const values = institutionValues(client);
    values.reps_code = ' 110010123401 ';
    values.sites.push({ name: ' Sede sur ', reps_site_code: '', address: 'Calle 1 # 2-3', city_id: 2611001 });
    expect(institutionBody(values)).toEqual({
      nit: '900123456',
      reps_code: '110010123401',
      provider_class: '1',
      legal_nature: null,
      care_level: '2',
      address: null,
      city_id: 2611001,
      sites: [
        { id: 4, name: 'Sede norte', reps_site_code: '110010123401', address: null, city_id: null },
        { name: 'Sede sur', reps_site_code: null, address: 'Calle 1 # 2-3', city_id: 2611001 },
      ],
    });
  });

  it('sends an empty list when every site was removed', () => {
    expect(institutionBody({ ...institutionValues(client), sites: [] }).sites).toEqual([]);
  });

  it.each([
    ['reps_code', ['reps_code']],
    ['sites[1].name', ['sites', 1, 'name']],
    ['sites.0.city_id', ['sites', 0, 'city_id']],
    ['/sites/2/reps_site_code', ['sites', 2, 'reps_site_code']],
  ])('a 400 on %s shows under %j', (field, path) => {
    expect(fieldPath(field)).toEqual(path);
  });
});
