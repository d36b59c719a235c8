import express from 'express';
import { loadContract } from './contract.js';
import { describe, expect, it } from 'vitest';
import { expressPath } from '@vigia/contract/rules/operations';
import { operationTable, route } from './operations.js';

describe('operationTable', () => {
  it.each([
    ['listTags', 'get', '/tags'],
    ['createTag', 'post', '/tags'],
    ['getTag', 'get', '/tags/:id'],
    ['updateTag', 'put', '/tags/:id'],
    ['patchTag', 'patch', '/tags/:id'],
    ['deleteTag', 'delete', '/tags/:id'],
    ['deleteTagPrompt', 'delete', '/tags/:id/prompts/:promptId'],
  ])('binds %s to %s %s, as openapi.yaml says', (op, method, path) => {
    expect(operationTable().get(op)).toEqual({ method, path });
  });

  it('knows every operation of the contract, each once', () => {
    const ids = Object.values(loadContract().doc.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).flatMap((op) => (op?.operationId ? [op.operationId] : [])),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect([...operationTable().keys()].sort()).toEqual([...ids].sort());
  });

  // Spectral's operation-description (issue 49): the summary names the operation, the description
  // says what an integrator needs beyond it (who may call it, what a 409 means).
  it('gives every operation a description of its own, beside its summary', () => {
    const lacking = Object.entries(loadContract().doc.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId?: string; summary?: string; description?: string }>).flatMap(([method, op]) =>
        op?.operationId && (!op.description?.trim() || op.description.trim() === op.summary?.trim())
          ? [`${method.toUpperCase()} ${path} (${op.operationId})`]
          : [],
      ),
    );
    expect(lacking).toEqual([]);
  });
});

describe('route', () => {
  it('refuses a name the contract does not have', () => {
    expect(() => route(express.Router(), 'noSuchOperation' as 'listTags', [], () => undefined)).toThrow(/noSuchOperation/);
  });
});

describe('expressPath', () => {
  it.each([
    ['/tags', '/tags'],
    ['/patients/{id}/alerts/{alertId}', '/patients/:id/alerts/:alertId'],
  ])('%s is %s', (from, to) => expect(expressPath(from)).toBe(to));
});
