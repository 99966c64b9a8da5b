/**
 * A plan of several projects as data (src/plan/joined-plan.ts): joined from each project's plan, its
 * document read back (schema, consistency: each change checked against its own project's owner),
 * and split again into the same plans.
 */
import { describe, expect, it } from 'vitest';
import { planBuilder } from '../../src/plan/plan-builder.js';
import { joinPlans, splitPlan } from '../../src/plan/joined-plan.js';
import { parsePlan } from '../../src/plan/saved.js';
import { serializePlan } from '../../src/plan/encode.js';
import type { Plan, PlanProject } from '../../src/plan/types.js';
import type { Policy } from '../../src/policy/types.js';
import type { LiveScope } from '../../src/service/types.js';

const TARGET = 'https://invitations.example.com';

function policy(name: string, domains: string[]): Policy {
  return { key: `team/${name}`, scope: name, scopeType: 'team', componentId: 'cmp', domains, source: { file: `${name}.autojoin.yaml`, line: 1, column: 1 }, explicitEmpty: false };
}

function live(name: string, domains: string[], owner: string): LiveScope {
  return { key: `team/${name}`, scope: name, scopeType: 'team', domains, autojoin: { invitationId: `inv-${name}`, status: 'sent', acceptsCount: 0 }, metadata: owner === '' ? {} : { 'autojoin-sync.owner': owner } };
}

function projectPlan(owner: string, scopes: [string, string[], string[]][], marked = owner): Plan {
  const builder = planBuilder({ target: TARGET, owner, now: new Date('2026-03-01T00:00:00Z') });
  for (const [name, wanted, had] of scopes) builder.add(policy(name, wanted), live(name, had, marked));
  const plan = builder.finish();
  return { ...plan, context: { projectFile: null, limits: {}, rules: [], today: '2026-03-01', head: null, takeOwnership: [] } };
}

function project(name: string, owner: string): PlanProject {
  return { name, projectFile: { path: name, sha256: 'a'.repeat(64) }, root: name.split('/').slice(0, -1).join('/'), owner, limits: { maxRemovals: 1 }, rules: [], takeOwnership: [] };
}

describe('a plan of several projects', () => {
  const eng = { project: project('teams/eng/autojoin-sync.yaml', 'eng'), plan: projectPlan('eng', [['eng', ['a.example', 'b.example'], ['a.example']], ['eng-same', ['c.example'], ['c.example']]]) };
  const ops = { project: project('teams/ops/autojoin-sync.yaml', 'ops'), plan: projectPlan('ops', [['ops', ['d.example', 'e.example'], ['d.example']]], '') };

  it('lists every change at the top level, each naming its project, and every project with its context', () => {
    const joined = joinPlans([eng, ops]);
    expect(joined.changes.map((change) => [change.key, change.kind, change.project])).toEqual([
      ['team/eng', 'update', 'teams/eng/autojoin-sync.yaml'],
      ['team/ops', 'update', 'teams/ops/autojoin-sync.yaml'],
    ]);
    expect(joined.scopes.map((scope) => scope.project)).toEqual(['teams/eng/autojoin-sync.yaml', 'teams/eng/autojoin-sync.yaml', 'teams/ops/autojoin-sync.yaml']);
    expect(joined.projects).toEqual([eng.project, ops.project]);
  });

  it('reads back from its document (each change checked against its own project owner) and splits into the plans it was joined from', () => {
    const read = parsePlan(serializePlan(joinPlans([eng, ops])), 'plan.json');
    const parts = splitPlan(read);
    expect(parts.map((part) => part.project)).toEqual([eng.project, ops.project]);
    expect(parts.map((part) => [part.plan.owner, part.plan.changes, part.plan.scopes])).toEqual([
      ['eng', eng.plan.changes, eng.plan.scopes],
      ['ops', ops.plan.changes, ops.plan.scopes],
    ]);
    expect(parts[1]?.plan.context?.limits).toEqual({ maxRemovals: 1 });
  });

  it('refuses a document whose change names no project of it', () => {
    const text = serializePlan(joinPlans([eng, ops])).replace('"project": "teams/ops/autojoin-sync.yaml"', '"project": "teams/sales/autojoin-sync.yaml"');
    expect(() => parsePlan(text, 'plan.json')).toThrow(/names no project of \/projects/u);
  });
});
