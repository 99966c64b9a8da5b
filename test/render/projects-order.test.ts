/**
 * The order of a plan of several projects' sections (design: "Many projects, one run"): in a pull
 * request the projects it changed first, each changed file counting for its nearest project (a
 * project nested in another's folder takes its own files), then projects with changes, then by name.
 */
import { describe, expect, it } from 'vitest';
import { projectsInOrder } from '../../src/render/projects-text.js';
import { PLAN_FORMAT_VERSION, type Plan, type PlanProject } from '../../src/plan/types.js';

const project = (root: string, projectFile: boolean): PlanProject => ({
  name: projectFile ? `${root === '.' ? '' : `${root}/`}autojoin-sync.yaml` : root,
  projectFile: projectFile ? { path: `${root}/autojoin-sync.yaml`, sha256: '0'.repeat(64) } : null,
  root,
  owner: root,
  limits: {},
  rules: [],
  takeOwnership: [],
});

/** Projects at the root (no project file), in teams/eng and in teams/eng/sub (nested); only ops has a change. */
const plan: Plan = {
  formatVersion: PLAN_FORMAT_VERSION,
  createdAt: '2026-03-01T00:00:00.000Z',
  target: 'https://invitations.example.com',
  owner: 'o',
  changes: [{ kind: 'create', key: 'team/ops', scope: 'ops', scopeType: 'team', componentId: 'c', before: [], after: ['ops.example'], reason: 'declared', project: 'teams/ops/autojoin-sync.yaml' }],
  scopes: [],
  notManagedHere: [],
  drift: [],
  projects: [project('.', false), project('teams/eng', true), project('teams/eng/sub', true), project('teams/ops', true)],
};

const order = (changed: readonly string[]): string[] => projectsInOrder(plan, new Set(changed)).map((part) => part.project.name);

describe('projectsInOrder', () => {
  it('outside a pull request: projects with changes first, then by name', () => {
    expect(order([])).toEqual(['teams/ops/autojoin-sync.yaml', '.', 'teams/eng/autojoin-sync.yaml', 'teams/eng/sub/autojoin-sync.yaml']);
  });

  it('a file of a nested project counts for that project only, never for the one whose folder holds it', () => {
    expect(order(['teams/eng/sub/x.autojoin.yaml'])).toEqual(['teams/eng/sub/autojoin-sync.yaml', 'teams/ops/autojoin-sync.yaml', '.', 'teams/eng/autojoin-sync.yaml']);
  });

  it('a project file counts for its project; a file outside every project folder for the root\'s', () => {
    expect(order(['teams/eng/autojoin-sync.yaml', 'README.md'])).toEqual(['.', 'teams/eng/autojoin-sync.yaml', 'teams/ops/autojoin-sync.yaml', 'teams/eng/sub/autojoin-sync.yaml']);
  });
});
