import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/plan.js';
import { parsePlan } from '../../src/plan/saved.js';
import { renderJson } from '../../src/render/json.js';
import { live, liveMap, NOW, policy, TARGET } from '../plan/fixtures.js';

describe('renderJson', () => {
  it('is the saved plan document', () => {
    const plan = buildPlan({ desired: [policy('team/a', ['a.com'])], live: liveMap(live('team/a', ['b.com'])), target: TARGET, now: NOW });
    const text = renderJson(plan);
    expect(parsePlan(text)).toEqual(plan);
    expect(JSON.parse(text).changes[0]).toMatchObject({ kind: 'update', added: ['a.com'], removed: ['b.com'] });
  });
});
