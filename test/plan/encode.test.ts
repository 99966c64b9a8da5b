/** The plan in memory holds decisions; the plan document adds what follows from them, and reading drops it again. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePlan, encodePlan, serializePlan } from '../../src/plan/encode.js';
import { domainDelta, summarize } from '../../src/plan/derived.js';
import { comparableDomains } from '../../src/comparable-domain.js';
import { parsePlan } from '../../src/plan/saved.js';
import { resultDocument } from '../../src/render/result-json.js';
import { buildPlan } from '../support/plan.js';
import { live, liveMap, NOW, policy, TARGET } from './fixtures.js';

const plan = buildPlan({
  desired: [policy('team/a', ['a.com', 'new.com']), policy('team/b', []), policy('team/c', ['c.com']), policy('team/same', ['s.com'])],
  live: liveMap(live('team/a', ['a.com', 'old.com']), live('team/b', ['b.com']), live('team/same', ['s.com'])),
  target: TARGET,
  now: NOW,
});

describe('derived data', () => {
  it('a change in memory holds before and after, never what follows from them; the plan holds no summary', () => {
    for (const change of plan.changes) {
      expect(change).not.toHaveProperty('added');
      expect(change).not.toHaveProperty('removed');
      expect(change).not.toHaveProperty('unchanged');
    }
    expect(plan).not.toHaveProperty('summary');
  });

  it('domainDelta is the set difference both ways, whether the lists are sorted (one walk) or not', () => {
    const naive = (before: string[], after: string[]) => {
      const added = after.filter((domain) => !before.includes(domain));
      return { added, removed: before.filter((domain) => !after.includes(domain)), unchanged: after.length - added.length };
    };
    const list = fc.array(fc.constantFrom('a.com', 'b.com', 'c.com', 'd.com', 'e.com', 'B.com', 'xn--bcher-kva.example'), { maxLength: 6 });
    fc.assert(
      fc.property(list, list, fc.boolean(), (before, after, normalize) => {
        const sides = normalize ? { before: comparableDomains(before), after: comparableDomains(after) } : { before, after };
        expect(domainDelta(sides)).toEqual(naive(sides.before, sides.after));
      }),
    );
  });

  it('domainDelta and summarize derive them', () => {
    expect(domainDelta({ before: ['a.com', 'old.com'], after: ['a.com', 'new.com'] })).toEqual({ added: ['new.com'], removed: ['old.com'], unchanged: 1 });
    expect(summarize(plan)).toEqual({ create: 1, update: 1, clear: 1, unchanged: 1, domainsAdded: 2, domainsRemoved: 2 });
  });
});

describe('the plan document', () => {
  it('carries each change with its delta and the summary, in the document order', () => {
    const document = encodePlan(plan);
    expect(document.summary).toEqual(summarize(plan));
    expect(document.changes.map((change) => [change.kind, change.key, change.added, change.removed, change.unchanged])).toEqual([
      ['clear', 'team/b', [], ['b.com'], 0],
      ['update', 'team/a', ['new.com'], ['old.com'], 1],
      ['create', 'team/c', ['c.com'], [], 0],
    ]);
    expect(Object.keys(document).slice(0, 6)).toEqual(['formatVersion', 'createdAt', 'target', 'owner', 'summary', 'changes']);
  });

  it('reads back as the plan it was made from, derived fields dropped, and writes the same bytes again', () => {
    const text = serializePlan(plan);
    const read = parsePlan(text);
    expect(read).toEqual(plan);
    expect(read).not.toHaveProperty('summary');
    expect(read.changes[0]).not.toHaveProperty('added');
    expect(serializePlan(read)).toBe(text);
    expect(decodePlan(encodePlan(plan))).toEqual(plan);
  });

  it('is what the result document of a refused plan holds', () => {
    const document = resultDocument({ exitCode: 3, message: 'refused', error: new Error('refused'), plan });
    expect(document.plan).toEqual(encodePlan(plan));
    expect(document.plan?.summary.clear).toBe(1);
  });
});
