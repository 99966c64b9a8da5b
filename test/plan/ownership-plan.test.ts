/** Ownership in the plan: owner changes, pruning only this owner's scopes, the refusal, saved-plan checks, the comment's cut. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import { parsePlan } from '../../src/plan/saved.js';
import { encodePlan, serializePlan, type PlanDocument } from '../../src/plan/encode.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/plan-text.js';
import { OwnedElsewhereError, ownershipConflicts, parseTakeOwnership, refuseOwnedElsewhere } from '../../src/reconcile/ownership-refusal.js';
import { defined } from '../support/defined.js';
import { live, liveMap, marked, noAutojoin, NOW, policy, TARGET } from './fixtures.js';
import { useWording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';

// The messages asserted here are worded as the CLI words them (src/hint.ts).
useWording(cliWording);

const pruned = [policy('team/mine', ['m.com']), policy('team/theirs', ['t.com']), policy('team/bare', ['b.com'])];
const current = liveMap(marked(live('team/mine', ['m.com'])), marked(live('team/theirs', ['t.com']), 'infra'), { ...live('team/bare', ['b.com']), metadata: null });

describe('pruning clears only this owner\'s scopes', () => {
  it('clears the scope marked by this owner and lists the others as not managed here, with no fingerprint', () => {
    const plan = buildPlan({ desired: [], live: current, pruned, target: TARGET, now: NOW });
    expect(plan.changes.map((change) => `${change.kind} ${change.key}`)).toEqual(['clear team/mine']);
    expect(plan.notManagedHere).toEqual([{ key: 'team/bare', owner: null }, { key: 'team/theirs', owner: 'infra' }]);
    expect(plan.scopes.map((scope) => scope.key)).toEqual(['team/mine']);
    expect(parsePlan(serializePlan(plan))).toEqual(plan);
  });

  it('clears a scope of another owner (and says so) or without a marker under --take-ownership', () => {
    const plan = buildPlan({ desired: [], live: current, pruned, target: TARGET, now: NOW, takeOwnership: new Set(['team/bare', 'team/theirs']) });
    expect(plan.changes.map((change) => change.key)).toEqual(['team/bare', 'team/mine', 'team/theirs']);
    expect(plan.changes.find((change) => change.key === 'team/theirs')?.fieldChanges).toEqual([{ field: 'owner', before: 'infra', after: 'default' }]);
    expect(plan.notManagedHere).toEqual([]);
    expect(ownershipConflicts(plan, new Set(['team/theirs']))).toEqual([]);
  });

  it('is a count in text, a list with --verbose, and a block in markdown', () => {
    const plan = buildPlan({ desired: [], live: current, pruned, target: TARGET, now: NOW });
    const line = "2 scopes no policy file declares are not managed here (another owner's ownership marker, or none): not cleared; --take-ownership TYPE/ID clears one.";
    expect(renderText(plan, { color: false })).toContain(`\n${line}\n`);
    expect(renderText(plan, { color: false })).not.toContain('team/theirs');
    expect(renderText(plan, { color: false, verbose: true })).toContain('    team/bare: no ownership marker\n    team/theirs: owner "infra"\n');
    expect(renderMarkdown(plan)).toContain('<details open><summary>Not managed here: 2 (not cleared)</summary>\n\n- team/bare: no ownership marker\n- team/theirs: owner &#34;infra&#34;');
  });
});

describe('a declared scope of another owner', () => {
  const plan = buildPlan({ desired: [policy('team/theirs', ['t.com'])], live: current, target: TARGET, now: NOW, owner: 'platform' });

  it('is an update of owner, and stops the run unless taken over', () => {
    expect(encodePlan(plan).changes).toMatchObject([{ kind: 'update', added: [], removed: [], fieldChanges: [{ field: 'owner', before: 'infra', after: 'platform' }] }]);
    expect(() => refuseOwnedElsewhere(plan)).toThrow(OwnedElsewhereError);
    expect(() => refuseOwnedElsewhere(plan)).toThrow('team/theirs (owner "infra"): managed by another owner');
    expect(() => refuseOwnedElsewhere(plan, new Set(['team/theirs']))).not.toThrow();
  });

  it('a scope without a marker is marked without any flag; one whose metadata is not shown is not compared', () => {
    const bare = buildPlan({ desired: [policy('team/bare', ['b.com'])], live: current, target: TARGET, now: NOW });
    expect(bare.changes).toMatchObject([{ kind: 'update', fieldChanges: [{ field: 'owner', before: null, after: 'default' }] }]);
    expect(() => refuseOwnedElsewhere(bare)).not.toThrow();
    expect(buildPlan({ desired: [policy('team/x', ['x.com'])], live: liveMap(live('team/x', ['x.com'])), target: TARGET, now: NOW }).changes).toEqual([]);
  });
});

describe('--take-ownership values', () => {
  it('takes TYPE/ID, repeated or separated by commas and newlines', () => {
    expect([...parseTakeOwnership(['team/a, team/b', 'org/c\nteam/a'])]).toEqual(['team/a', 'team/b', 'org/c']);
    expect(() => parseTakeOwnership(['acme'])).toThrow('--take-ownership "acme": expected TYPE/ID');
  });
});

describe('saved-plan checks of ownership', () => {
  const plan = buildPlan({ desired: [policy('team/bare', ['b.com'])], live: current, target: TARGET, now: NOW });
  const edited = (edit: (doc: PlanDocument) => void): string => {
    const doc = JSON.parse(serializePlan(plan)) as PlanDocument;
    edit(doc);
    return JSON.stringify(doc);
  };

  it('refuses an owner change to anyone but the plan\'s owner, and a marker key among the kept ones', () => {
    expect(() => parsePlan(edited((doc) => (defined(defined(doc.changes[0]).fieldChanges)[0] = { field: 'owner', before: null, after: 'evil' })))).toThrow(
      'fieldChanges shows owner "evil", but apply marks the scope with the plan\'s owner "default"',
    );
    expect(() => parsePlan(edited((doc) => (defined(doc.changes[0]).keptMetadata = { 'autojoin-sync.digest': 'x' })))).toThrow('keptMetadata');
    expect(() => parsePlan(edited((doc) => doc.notManagedHere.push({ key: 'team/bare', owner: null })))).toThrow('/notManagedHere/0 (team/bare): the scope appears twice');
    expect(() => parsePlan(edited((doc) => doc.notManagedHere.push({ key: 'team/z', owner: 'default' })))).toThrow("its owner is the plan's own");
  });
});

describe('the PR comment never drops a clear', () => {
  it('keeps the clear whole when 330 creates must be cut', () => {
    // Each create touches more domains than the clear, and the clear's block is longer than any create's:
    // ranked by size alone, the creates fill the comment and the clear no longer fits in what is left.
    const creates = Array.from({ length: 330 }, (_, i) => policy(`team/new-${String(i).padStart(3, '0')}`, [`a.new-${i}.example.com`, `b.new-${i}.example.com`]));
    const longName = `${'x'.repeat(60)}.example.com`;
    const plan = buildPlan({
      desired: [...creates, policy('team/gone', [])],
      live: liveMap(marked(live('team/gone', [longName])), ...creates.map((c) => noAutojoin(c.key))),
      target: TARGET,
      now: NOW,
    });
    const full = renderMarkdown(plan, { maxChars: 10_000_000 });
    expect(full.length).toBeGreaterThan(60_000);
    const comment = renderMarkdown(plan);
    expect(comment.length).toBeLessThanOrEqual(60_000);
    expect(comment).toContain('<b>team/gone</b>');
    expect(comment).toContain(`- ${longName}`);
    expect(comment).toMatch(/changed scopes omitted here/u);
  });
});
