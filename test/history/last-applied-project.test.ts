/**
 * The state last applied is read under the project file of the marker's commit (its defaults
 * then, not today's), from the repository's root and from a team folder below it; and with no
 * project file, or one that was not there then, under none.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLastApplied } from '../../src/history/last-applied.js';
import type { ScopeKey } from '../../src/scope.js';
import { commitAll, commitChanges } from '../support/git.js';
import { tempDirOfTest } from '../support/temp.js';

const untyped = 'scope: x\ncomponentId: c1\ndomains: [x.example.com]\n';

/** A repository whose first commit sets `defaults.scopeType: team` in `projectAt`, and whose second sets `workspace`. */
function repository(projectAt: string): { dir: string; then: string } {
  const dir = tempDirOfTest('last-applied-project-');
  mkdirSync(path.join(dir, 'teams/a/policies'), { recursive: true });
  writeFileSync(path.join(dir, 'teams/a/policies/x.autojoin.yaml'), untyped);
  writeFileSync(path.join(dir, projectAt), 'defaults:\n  scopeType: team\n');
  const then = commitAll(dir);
  writeFileSync(path.join(dir, projectAt), 'defaults:\n  scopeType: workspace\n');
  commitChanges(dir);
  return { dir, then };
}

async function stateAt(cwd: string, commit: string, key: ScopeKey, projectFile: string | undefined, file = 'policies/x.autojoin.yaml'): Promise<unknown> {
  const read = await readLastApplied(new Map([[commit, [{ key, file }]]]), { paths: ['policies'], cwd, project: projectFile ? { file: projectFile } : {} });
  return read(commit, key)?.domains ?? null;
}

describe('the state last applied, under the project file then', () => {
  it('takes defaults.scopeType from the project file at the marker commit, not today\'s, run from a team folder', async () => {
    const { dir, then } = repository('autojoin-sync.yaml');
    const cwd = path.join(dir, 'teams/a');
    expect(await stateAt(cwd, then, 'team/x', path.join(dir, 'autojoin-sync.yaml'))).toEqual(['x.example.com']);
    expect(await stateAt(cwd, then, 'workspace/x', path.join(dir, 'autojoin-sync.yaml'))).toBeNull();
  });

  it('the same with the project file in the folder the run starts in', async () => {
    const { dir, then } = repository('teams/a/autojoin-sync.yaml');
    const cwd = path.join(dir, 'teams/a');
    expect(await stateAt(cwd, then, 'team/x', path.join(cwd, 'autojoin-sync.yaml'))).toEqual(['x.example.com']);
  });

  it('reads under no project file when the run has none, or when its file was not there then', async () => {
    const { dir, then } = repository('autojoin-sync.yaml');
    const cwd = path.join(dir, 'teams/a');
    expect(await stateAt(cwd, then, 'team/x', undefined)).toBeNull();
    expect(await stateAt(cwd, then, 'team/x', path.join(cwd, 'autojoin-sync.yaml'))).toBeNull();
  });
});
