/** The consistency checks of a saved plan on the fields issue 10 added: names and metadata. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import { parsePlan } from '../../src/plan/saved.js';
import { serializePlan, type PlanDocument } from '../../src/plan/encode.js';
import type { Plan, UpdateChange } from '../../src/plan/types.js';
import { live, liveMap, NOW, policy, TARGET } from './fixtures.js';
import { fieldLines } from '../../src/render/describe.js';
import { defined } from '../support/defined.js';

const plan: Plan = buildPlan({
  desired: [policy('team/a', ['a.com'], { scopeName: 'New name', metadata: { owner: 'eng' } })],
  live: liveMap({ ...live('team/a', ['a.com']), scopeName: 'Old name', metadata: { owner: 'eng', 'autojoin-sync.owner': 'default' } }),
  target: TARGET,
  now: NOW,
});

function edited(edit: (doc: PlanDocument) => void): string {
  const doc = JSON.parse(serializePlan(plan)) as PlanDocument;
  edit(doc);
  return JSON.stringify(doc);
}

describe('saved plan checks of names and metadata', () => {
  it('a rename is an update with fieldChanges, and it round-trips', () => {
    expect(plan.changes[0]).toMatchObject({ kind: 'update', fieldChanges: [{ field: 'scopeName', before: 'Old name', after: 'New name' }] });
    expect(parsePlan(serializePlan(plan))).toEqual(plan);
  });

  it('refuses a scopeName that is not the one fieldChanges shows', () => {
    expect(() => parsePlan(edited((doc) => { defined(doc.changes[0]).scopeName = 'Someone else'; }), 'plan.json')).toThrow(
      'plan.json is not a valid plan: /changes/0 (team/a): fieldChanges shows scopeName "New name", but apply sends "Someone else"; nothing was applied',
    );
  });

  it('shows names and metadata with every control character escaped, C1 and bidi included', () => {
    const hostile = { ...(defined(plan.changes[0]) as UpdateChange), fieldChanges: [{ field: 'metadata' as const, before: { owner: 'a\u009b2J\u202e' }, after: { owner: 'eng' } }] };
    const [line] = fieldLines(hostile);
    expect(line).toBe('metadata: {"owner":"a\\x9b2J\\u{202e}"} → {"owner":"eng"}');
  });
});

describe('saved plan checks of drift', () => {
  const report = { key: 'team/a', origin: 'drift' as const, live: ['a.com'], outside: { added: ['a.com'], removed: [], fields: [] } };

  it('refuses a scope kept as live (drift: keep) that the plan also writes', () => {
    expect(() => parsePlan(edited((doc) => { doc.drift = [report]; }), 'plan.json')).toThrow('/drift/0 (team/a): a kept scope must be covered once and not changed');
  });

  it('refuses a kept scope the plan does not cover, and an origin that is not drift or conflict', () => {
    expect(() => parsePlan(edited((doc) => { doc.drift = [{ ...report, key: 'team/zz' }]; }), 'plan.json')).toThrow('/drift/0 (team/zz)');
    expect(() => parsePlan(edited((doc) => { Object.assign(defined(doc.changes[0]), { origin: 'admin' }); }), 'plan.json')).toThrow('origin');
  });

  it('keeps origin and outside through a save, as reviewers saw them', () => {
    const tagged = edited((doc) => { Object.assign(defined(doc.changes[0]), { origin: 'drift', outside: { added: [], removed: ['b.com'], fields: [], modifiedAt: '2026-11-20T10:00:00.000Z' } }); });
    expect(parsePlan(tagged).changes[0]).toMatchObject({ origin: 'drift', outside: { removed: ['b.com'] } });
  });
});
