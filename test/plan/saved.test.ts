import { describe, expect, it } from 'vitest';
import { parsePlan, PlanFileError } from '../../src/plan/saved.js';
import { decodePlan, serializePlan, type PlanDocument } from '../../src/plan/encode.js';
import type { Plan } from '../../src/plan/types.js';
import { samplePlan } from './fixtures.js';
import { defined } from '../support/defined.js';

const plan: Plan = samplePlan();

function parseError(text: string): string {
  try {
    parsePlan(text, 'plan.json');
  } catch (error) {
    expect(error).toBeInstanceOf(PlanFileError);
    return (error as Error).message;
  }
  throw new Error('parsePlan accepted the text');
}

function mutated(change: (doc: Record<string, unknown> & PlanDocument) => void): string {
  const doc = JSON.parse(serializePlan(plan)) as Record<string, unknown> & PlanDocument;
  change(doc);
  return JSON.stringify(doc);
}

describe('saved plans', () => {
  it('round-trips exactly', () => {
    const text = serializePlan(plan);
    expect(parsePlan(text)).toEqual(plan);
    expect(serializePlan(parsePlan(text))).toBe(text);
  });

  it('writes stable text: fixed key order, 2-space indent, trailing newline', () => {
    const text = serializePlan(plan);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n').slice(0, 7)).toEqual([
      '{',
      '  "formatVersion": 5,',
      '  "createdAt": "2025-01-02T03:04:05.000Z",',
      '  "target": "https://invitations.example.com",',
      '  "owner": "default",',
      '  "shard": "1/1",',
      '  "summary": {',
    ]);
    const shuffled = JSON.parse(text, (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).reverse()) : value,
    ) as PlanDocument;
    expect(serializePlan(decodePlan(shuffled))).toBe(text);
    expect(text.indexOf('"kind"')).toBeLessThan(text.indexOf('"key"'));
  });

  it('refuses text that is not JSON', () => {
    expect(parseError('{ nope')).toMatch(/^plan\.json is not JSON \(6 characters\)$/);
  });

  it('refuses another formatVersion, and a missing one', () => {
    expect(parseError(mutated((doc) => { doc.formatVersion = 1 as 5; }))).toBe(
      'plan.json has formatVersion 1; this autojoin-sync reads formatVersion 5 (make the plan again with this version)',
    );
    expect(parseError('[]')).toContain('has formatVersion missing;');
  });

  it('names where the document is invalid', () => {
    expect(parseError(mutated((doc) => { (doc.changes[0] as { kind: string }).kind = 'delete'; }))).toBe(
      'plan.json is not a valid plan: invalid at /changes/0/kind: must be equal to one of the allowed values (create, update, clear)',
    );
    expect(parseError(mutated((doc) => { doc.apiKey = 'x'; }))).toBe(
      'plan.json is not a valid plan: invalid at the top level: must NOT have additional properties (apiKey)',
    );
    expect(parseError(mutated((doc) => { (doc.scopes[0] as { fingerprint: string }).fingerprint = 'xyz'; }))).toContain('invalid at /scopes/0/fingerprint: must match pattern');
    expect(parseError(mutated((doc) => { delete (doc as Partial<PlanDocument>).summary; }))).toContain("must have required property 'summary'");
  });

  it('refuses a create that has a live list, or a clear that keeps domains', () => {
    const createIndex = plan.changes.findIndex((change) => change.kind === 'create');
    expect(parseError(mutated((doc) => { defined(doc.changes[createIndex]).before = ['x.com']; }))).toContain(`invalid at /changes/${createIndex}/before: must NOT have more than 0 items`);
    expect(parseError(mutated((doc) => { defined(doc.changes[0]).after = ['x.com']; }))).toContain('invalid at /changes/0/after: must NOT have more than 0 items');
  });

  it('refuses a change whose scope has no fingerprint', () => {
    expect(parseError(mutated((doc) => { doc.scopes = doc.scopes.filter((scope) => scope.key !== 'team/b'); }))).toMatch(
      /^plan\.json is not a valid plan: \/changes\/\d+ \(team\/b\) has no fingerprint in \/scopes$/,
    );
  });
});
