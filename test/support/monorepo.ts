/**
 * A monorepo of three teams, each keeping its own project file (design: "Many projects, one run"),
 * in a real git repository:
 *
 *   teams/eng/autojoin-sync.yaml      owner eng, defaults team/cmp_eng, limits, a rule allowing only acme.com and acme.*
 *   teams/eng/policies/eng.autojoin.yaml       team/acme-eng, team/acme-platform
 *   teams/ops/autojoin-sync.yaml      owner ops, defaults workspace/cmp_ops, a rule requiring expiry on contractor.example
 *   teams/ops/ops.autojoin.yaml                workspace/ops-oncall (a contractor domain, with expiry)
 *   teams/sales/autojoin-sync.yaml    owner sales, defaults team/cmp_sales, no rules
 *   teams/sales/sales.autojoin.yaml            team/acme-sales (acme-sales.io: eng's rule would deny it)
 *
 * Every policy file is in fmt's canonical form. Each project's files pass only under their own project file: eng's allow-list would refuse
 * sales' domain, and ops' and sales' files name no componentId or scopeType of their own.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commitAll } from './git.js';

export const TEAMS = ['eng', 'ops', 'sales'] as const;
export type Team = (typeof TEAMS)[number];

/** Every file of the monorepo, by its path from the repository root. */
export const MONOREPO_FILES: Readonly<Record<string, string>> = {
  'README.md': '# a monorepo of teams\n',
  'teams/eng/autojoin-sync.yaml': [
    'owner: eng',
    'defaults:',
    '  componentId: cmp_eng',
    '  scopeType: team',
    'safety:',
    '  maxRemovals: 5',
    'rules:',
    '  - name: eng domains only',
    '    allow: ["acme.com", "acme.*"]',
    '',
  ].join('\n'),
  'teams/eng/policies/eng.autojoin.yaml': ['scope: acme-eng', 'domains:', '  - acme.co.uk', '  - acme.com', '---', 'scope: acme-platform', 'domains:', '  - acme.com', ''].join('\n'),
  'teams/ops/autojoin-sync.yaml': [
    'owner: ops',
    'defaults:',
    '  componentId: cmp_ops',
    '  scopeType: workspace',
    'safety:',
    '  maxRemovals: 2',
    'rules:',
    '  - name: contractors are time-bound',
    '    requireExpiry: ["contractor.example"]',
    '',
  ].join('\n'),
  'teams/ops/ops.autojoin.yaml': ['scope: ops-oncall', 'domains:', '  - acme-ops.net', '  - domain: contractor.example', '    expires: 2026-09-01', '    reason: on-call contract', ''].join('\n'),
  'teams/sales/autojoin-sync.yaml': ['owner: sales', 'defaults:', '  componentId: cmp_sales', '  scopeType: team', ''].join('\n'),
  'teams/sales/sales.autojoin.yaml': ['scope: acme-sales', 'domains:', '  - acme-sales.io', ''].join('\n'),
};

/** The scopes each team declares, as TYPE/ID. */
export const MONOREPO_SCOPES: Readonly<Record<Team, readonly string[]>> = {
  eng: ['team/acme-eng', 'team/acme-platform'],
  ops: ['workspace/ops-oncall'],
  sales: ['team/acme-sales'],
};

/** The date the fixture's expiries are judged on (AUTOJOIN_NOW). */
export const MONOREPO_NOW = '2026-03-01';

/**
 * Writes the monorepo into a new temporary directory and commits it.
 * @param extra more files (path from the root → text), written before the commit; null leaves a file of the fixture out
 * @returns the repository's root
 */
export function makeMonorepo(extra: Readonly<Record<string, string | null>> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'autojoin-monorepo-'));
  writeMonorepo(dir, extra);
  commitAll(dir, 'three teams');
  return dir;
}

/** Writes the monorepo's files (and `extra`) into `dir`, committing nothing (outside git, or before a commit of the caller's). */
export function writeMonorepo(dir: string, extra: Readonly<Record<string, string | null>> = {}): void {
  const files = { ...MONOREPO_FILES, ...extra };
  for (const [file, text] of Object.entries(files)) {
    if (text === null) continue;
    const target = path.join(dir, ...file.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
}
