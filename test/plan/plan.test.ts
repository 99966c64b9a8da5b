import { describe, expect, it } from 'vitest';
import { planBuilder } from '../../src/plan/plan-builder.js';
import { fingerprint } from '../../src/plan/live-fingerprint.js';
import { buildPlan } from '../support/plan.js';
import { summarize } from '../../src/plan/derived.js';
import { inShard, parseShard } from '../../src/plan/shard.js';
import { live, liveMap, noAutojoin, NOW, policy, TARGET, marked } from './fixtures.js';

describe('buildPlan', () => {
  const desired = [
    policy('team/create', ['new.com']),
    policy('team/update', ['a.com', 'c.com']),
    policy('team/clear', []),
    policy('team/same', ['s.com']),
    policy('team/absent', []),
  ];
  const current = liveMap(live('team/update', ['a.com', 'b.com', 'd.com']), live('team/clear', ['x.com', 'y.com']), live('team/same', ['s.com']));

  it('sorts clears first, then updates, then creates, each by key', () => {
    const plan = buildPlan({
      desired: [...desired, policy('team/another-create', ['n.com']), policy('team/b-clear', [])],
      live: new Map([...current, ['team/b-clear', live('team/b-clear', ['q.com'])]]),
      target: TARGET,
      now: NOW,
    });
    expect(plan.changes.map((change) => `${change.kind} ${change.key}`)).toEqual([
      'clear team/b-clear',
      'clear team/clear',
      'update team/update',
      'create team/another-create',
      'create team/create',
    ]);
  });

  it('covers every desired and pruned scope with its fingerprint and counts the summary', () => {
    const plan = buildPlan({ desired, live: current, pruned: [policy('team/pruned', ['p.com'])], target: TARGET, now: NOW });
    expect(plan.formatVersion).toBe(5);
    expect(plan.createdAt).toBe('2025-01-02T03:04:05.000Z');
    expect(plan.target).toBe(TARGET);
    expect(plan.shard).toBeUndefined();
    expect(plan.scopes.map((scope) => scope.key)).toEqual(['team/absent', 'team/clear', 'team/create', 'team/pruned', 'team/same', 'team/update']);
    expect(plan.scopes.find((scope) => scope.key === 'team/same')?.fingerprint).toBe(fingerprint(live('team/same', ['s.com'])));
    expect(plan.scopes.find((scope) => scope.key === 'team/pruned')?.fingerprint).toBe(fingerprint(undefined));
    expect(summarize(plan)).toEqual({ create: 1, update: 1, clear: 1, unchanged: 3, domainsAdded: 2, domainsRemoved: 4 });
  });

  it('keeps only the shard, records it, and the shards add up to the whole plan', () => {
    const many = Array.from({ length: 40 }, (_, i) => policy(`team/s${i}`, [`d${i}.com`]));
    const whole = buildPlan({ desired: many, live: liveMap(), target: TARGET, now: NOW });
    const parts = [1, 2, 3].map((index) => buildPlan({ desired: many, live: liveMap(), target: TARGET, now: NOW, shard: { index, total: 3 } }));
    expect(parts.map((part) => part.shard)).toEqual(['1/3', '2/3', '3/3']);
    for (const part of parts) expect(part.changes.every((change) => inShard(change.key, parseShard(part.shard ?? '')))).toBe(true);
    const union = parts.flatMap((part) => part.changes.map((change) => change.key)).sort();
    expect(union).toEqual(whole.changes.map((change) => change.key).sort());
    expect(parts.reduce((sum, part) => sum + summarize(part).create, 0)).toBe(40);
  });

  it('drops credentials from the target URL', () => {
    const plan = buildPlan({ desired: [], live: liveMap(), target: 'https://user:s3cret@svc.example.com/base', now: NOW });
    expect(plan.target).toBe('https://svc.example.com/base');
  });

  it('uses the current time when none is given', () => {
    const before = Date.now();
    const plan = buildPlan({ desired: [], live: liveMap(), target: TARGET });
    expect(Date.parse(plan.createdAt)).toBeGreaterThanOrEqual(before);
  });
});

describe('planBuilder', () => {
  const desired = [policy('team/update', ['a.com', 'c.com']), policy('team/clear', []), policy('team/same', ['s.com']), policy('team/create', ['n.com'])];
  const current = liveMap(live('team/update', ['a.com', 'b.com']), live('team/clear', ['x.com']), live('team/same', ['s.com']));
  const gone = policy('team/gone', ['g.com']);
  const goneLive = marked(live('team/gone', ['g.com']));

  it('makes, scope by scope in any order, the plan buildPlan makes from a map of live states', () => {
    const builder = planBuilder({ target: TARGET, now: NOW });
    for (const entry of [...desired].reverse()) builder.add(entry, current.get(entry.key));
    builder.addPruned(gone, goneLive);
    const whole = buildPlan({ desired, live: new Map([...current, [gone.key, goneLive]]), pruned: [gone], target: TARGET, now: NOW });
    expect(builder.finish()).toEqual(whole);
    expect(whole.changes.map((change) => `${change.kind} ${change.key} ${change.reason}`)).toEqual([
      'clear team/clear declared',
      'clear team/gone pruned',
      'update team/update declared',
      'create team/create declared',
    ]);
  });

  it('keeps only the scopes of its shard', () => {
    const shard = { index: 1, total: 2 };
    const builder = planBuilder({ target: TARGET, now: NOW, shard });
    for (const entry of desired) builder.add(entry, current.get(entry.key));
    const plan = builder.finish();
    expect(plan.shard).toBe('1/2');
    expect(plan.scopes.map((scope) => scope.key)).toEqual(desired.map((entry) => entry.key).filter((key) => inShard(key, shard)).sort());
  });

  it('refuses a scope added twice', () => {
    const builder = planBuilder({ target: TARGET, now: NOW });
    builder.add(policy('team/twice', ['a.com']), undefined);
    builder.add(policy('team/twice', ['b.com']), undefined);
    expect(() => builder.finish()).toThrow('scope team/twice was planned twice');
  });
});

describe('fingerprint', () => {
  it('is stable, 64 hex characters, and ignores order, case, status, accepts and time', () => {
    const a = live('team/a', ['a.com', 'b.com'], 'inv-1');
    const b = { ...live('team/a', ['B.com', 'a.com.'], 'inv-1'), autojoin: { invitationId: 'inv-1', status: 'accepted', acceptsCount: 9, modifiedAt: '2025-01-01T00:00:00Z' } };
    expect(fingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(a)).toBe(fingerprint(b));
    // Pinned: saved plans made by one release are checked by the next, so the hash must not drift.
    expect(fingerprint(a)).toBe('306a99bb01e1c6641218a5d353193260be87c1dec0567f8c5b69b6da5ac4a31c');
  });

  it('changes when domains, the invitation or activity change', () => {
    const base = fingerprint(live('team/a', ['a.com'], 'inv-1'));
    expect(fingerprint(live('team/a', ['a.com', 'b.com'], 'inv-1'))).not.toBe(base);
    expect(fingerprint(live('team/a', ['a.com'], 'inv-2'))).not.toBe(base);
    expect(fingerprint(live('team/a', [], 'inv-1'))).not.toBe(fingerprint(noAutojoin('team/a')));
  });

  it('treats an absent scope like one without autojoin', () => {
    expect(fingerprint(undefined)).toBe(fingerprint(noAutojoin('team/a')));
  });
});
