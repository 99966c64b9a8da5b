import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import { parsePlan } from '../../src/plan/saved.js';
import type { Plan } from '../../src/plan/types.js';
import { renderJson } from '../../src/render/json.js';
import { live, liveMap, NOW, policy, TARGET, marked } from '../plan/fixtures.js';

describe('renderJson', () => {
  it('is the saved plan document', () => {
    const plan = buildPlan({ desired: [policy('team/a', ['a.com'])], live: liveMap(live('team/a', ['b.com'])), target: TARGET, now: NOW });
    const text = renderJson(plan);
    expect(parsePlan(text)).toEqual(plan);
    expect((JSON.parse(text) as Plan).changes[0]).toMatchObject({ kind: 'update', added: ['a.com'], removed: ['b.com'] });
  });
});

describe('renderJson of a pruned plan against the embedded emulator', () => {
  it('carries removedBy and target "embedded", and reads back as the same plan', () => {
    const removedBy = { commit: '3f9c2a7e41b0', date: '2025-03-14T10:00:00+01:00', subject: 'Retire gone' };
    const plan = buildPlan({ desired: [], live: liveMap(marked(live('team/gone', ['x.com']))), pruned: [{ ...policy('team/gone', ['x.com']), removedBy }], target: 'embedded', now: NOW });
    const text = renderJson(plan);
    expect(JSON.parse(text)).toMatchObject({ target: 'embedded', changes: [{ key: 'team/gone', kind: 'clear', reason: 'pruned', removedBy }] });
    expect(parsePlan(text)).toEqual(plan);
  });
});
