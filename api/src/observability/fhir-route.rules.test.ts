import { describe, expect, it } from 'vitest';
import { fhirRouteOf } from './fhir-route.rules.js';

describe('fhirRouteOf: the request log and metrics label of the FHIR API (issue 37)', () => {
  it.each([
    ['/oauth/token', '/oauth/token'],
    ['/fhir/R4/metadata', '/fhir/R4/metadata'],
    ['/fhir/R4/.well-known/smart-configuration', '/fhir/R4/.well-known/smart-configuration'],
    ['/fhir/R4/Observation', '/fhir/R4/Observation'],
    ['/fhir/R4/Observation/m12-13', '/fhir/R4/Observation/{id}'],
    ['/fhir/R4/Patient/p7', '/fhir/R4/Patient/{id}'],
    ['/fhir/R4/$export', '/fhir/R4/$export'],
    ['/fhir/R4/Patient/$export', '/fhir/R4/Patient/$export'],
    ['/fhir/R4/Group/g3/$export', '/fhir/R4/Group/{id}/$export'],
    ['/fhir/R4/Composition/rda12', '/fhir/R4/Composition/{id}'],
    ['/fhir/R4/Composition/rda12/$document', '/fhir/R4/Composition/{id}/$document'],
    ['/fhir/R4/$export-status/12', '/fhir/R4/$export-status/{id}'],
    ['/fhir/R4/$export-file/12/Patient.1.ndjson', '/fhir/R4/$export-file/{id}/{file}'],
    // Anything else is one label, whatever its path: the label set stays bounded.
    ['/fhir/R4/Banana', 'fhir_otra'],
    ['/fhir/R4/Banana/1', 'fhir_otra'],
    ['/fhir/R4/Patient/p7/_history/2', 'fhir_otra'],
    ['/fhir/R5/Patient', 'sin_ruta'],
  ])('%s → %s', (path, label) => expect(fhirRouteOf(path)).toBe(label));
});
