/**
 * Pruning in a run of several projects (design: "Many projects, one run", "Pruning and moves"): a
 * scope is a candidate only when no policy file of the run declares it now, and each candidate is
 * judged by the project whose files declared it at its marker's commit, also when one project's
 * folder holds another's (a nested project) or policy files with no project file lie beside them.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { monorepoCli, monorepoOfTest } from '../support/monorepo-run.js';
import { commitAll } from '../support/git.js';

const SLOW = 120_000;

interface Doc {
  changes: { key: string; kind: string; project?: string }[];
  notManagedHere: { key: string; project?: string }[];
  declaredOutside?: { key: string; project?: string }[];
}

const policy = (scope: string, domains: readonly string[]): string => [`scope: ${scope}`, 'domains:', ...domains.map((domain) => `  - ${domain}`), ''].join('\n');

describe('pruning in a monorepo whose eng folder holds another project (teams/eng/sub)', () => {
  it("clears each deleted scope in the project that declared it, and no other project lists it", async () => {
    const dir = monorepoOfTest({
      'teams/eng/extra.autojoin.yaml': policy('acme-extra', ['acme.com']),
      'teams/eng/sub/autojoin-sync.yaml': ['owner: sub', 'defaults:', '  componentId: cmp_sub', '  scopeType: team', ''].join('\n'),
      'teams/eng/sub/sub.autojoin.yaml': policy('sub-one', ['sub.example']),
      'teams/eng/sub/keep.autojoin.yaml': policy('sub-keep', ['sub.example']),
    });
    const applied = await monorepoCli(dir, 'apply', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    for (const file of ['teams/eng/extra.autojoin.yaml', 'teams/eng/sub/sub.autojoin.yaml']) rmSync(path.join(dir, ...file.split('/')));
    commitAll(dir, 'eng and sub each delete a file');
    const plan = await monorepoCli(dir, 'plan', '--format', 'json');
    expect(plan.code, plan.stderr).toBe(0);
    const doc = JSON.parse(plan.stdout) as Doc;
    expect(doc.changes.map((change) => [change.key, change.kind, change.project])).toEqual([
      ['team/acme-extra', 'clear', 'teams/eng/autojoin-sync.yaml'],
      ['team/sub-one', 'clear', 'teams/eng/sub/autojoin-sync.yaml'],
    ]);
    expect(doc.notManagedHere).toEqual([]);
    expect(doc.declaredOutside ?? []).toEqual([]);
  }, SLOW);
});

describe('pruning in a monorepo with policy files that have no project file beside the teams', () => {
  it('clears a deleted file of the files without a project file, and a deleted file of a team in that team', async () => {
    const shared = (scope: string, domain: string): string => [`scope: ${scope}`, 'scopeType: team', 'componentId: cmp_shared', 'domains:', `  - ${domain}`, ''].join('\n');
    const dir = monorepoOfTest({
      'shared/keep.autojoin.yaml': shared('shared-keep', 'shared.example'),
      'shared/old.autojoin.yaml': shared('shared-old', 'old.example'),
      'teams/sales/more.autojoin.yaml': policy('acme-sales-more', ['acme-sales.net']),
    });
    const applied = await monorepoCli(dir, 'apply', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    for (const file of ['shared/old.autojoin.yaml', 'teams/sales/more.autojoin.yaml']) rmSync(path.join(dir, ...file.split('/')));
    commitAll(dir, 'shared and sales each delete a file');
    const plan = await monorepoCli(dir, 'plan', '--format', 'json');
    expect(plan.code, plan.stderr).toBe(0);
    const doc = JSON.parse(plan.stdout) as Doc;
    expect(doc.changes.map((change) => [change.key, change.kind, change.project])).toEqual([
      ['team/acme-sales-more', 'clear', 'teams/sales/autojoin-sync.yaml'],
      ['team/shared-old', 'clear', '.'],
    ]);
    expect(doc.notManagedHere).toEqual([]);
  }, SLOW);
});
