import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENCOUNTER_KIND_LABELS } from './EncountersCard';

describe('ENCOUNTER_KIND_LABELS', () => {
  it("are the contract's x-labels of EncounterKind", () => {
    const doc = parse(readFileSync(new URL('../../../../openapi.yaml', import.meta.url), 'utf8'));
    expect(ENCOUNTER_KIND_LABELS).toEqual(doc.components.schemas.EncounterKind['x-labels']);
  });
});
