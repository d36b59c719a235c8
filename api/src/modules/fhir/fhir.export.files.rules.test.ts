import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NdjsonSplitWriter } from './fhir.export.files.js';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('NdjsonSplitWriter', () => {
  it('splits at the set number of resources and the counts add up', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigia-export-'));
    const w = new NdjsonSplitWriter(dir, 'Patient', 3);
    for (let i = 1; i <= 7; i++) await w.write({ resourceType: 'Patient', id: `p${i}` } as { resourceType: string });
    const files = await w.close();
    expect(files.map((f) => f.count)).toEqual([3, 3, 1]);
    const lines = (await Promise.all(files.map((f) => readFile(f.file, 'utf8'))))
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string });
    expect(lines.map((l) => l.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
  });

  it('writes no file when no resource came, and refuses another type', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigia-export-'));
    const w = new NdjsonSplitWriter(dir, 'Patient', 2);
    await expect(w.write({ resourceType: 'Observation' })).rejects.toThrow(/Observation/);
    expect(await w.close()).toEqual([]);
    expect(() => new NdjsonSplitWriter(dir, 'Patient', 0)).toThrow();
  });

  it('keeps memory bounded on a large run (awaits drain)', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigia-export-'));
    const w = new NdjsonSplitWriter(dir, 'Observation', 50_000);
    const pad = 'x'.repeat(500);
    for (let i = 0; i < 20_000; i++) await w.write({ resourceType: 'Observation', id: `m${i}`, note: pad } as { resourceType: string });
    const files = await w.close();
    expect(files).toHaveLength(1);
    expect(files[0]!.count).toBe(20_000);
  });
});
