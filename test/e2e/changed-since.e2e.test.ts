/**
 * `plan --changed-since GITREV` in a real git repository: only the files added, edited or deleted
 * since GITREV are read, so only their scopes are listed on the service; deleted scopes are
 * reported, not cleared; a bad revision or a combination with --prune-from is an error.
 */
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, startTestEmulator, tempProject, useEmulatorProject, writeFiles, type TempProject } from './support.js';
import { defined } from '../support/defined.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'pipe' });
}

/** The scopes the emulator was asked to list, e.g. `team/edited`. */
function listedScopes(): string[] {
  const listed = emulator.requests.map((r) => /\/by-(?:group|scope)\/([^/?]+)\/([^/?]+)/u.exec(r.path)).filter((m) => m !== null);
  return [...new Set(listed.map((m) => `${decodeURIComponent(defined(m[1]))}/${decodeURIComponent(defined(m[2]))}`))].sort();
}

describe('plan --changed-since GITREV', () => {
  it('reads only the scopes of files changed since GITREV', async () => {
    emulator = await startTestEmulator();
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`policies/same-${i}.autojoin.yaml`] = policy(`same-${i}`, [`same${i}.example`]);
    project = await tempProject({
      ...files,
      'policies/edited.autojoin.yaml': policy('edited', ['before.example']),
      'policies/gone.autojoin.yaml': policy('gone', ['gone.example']),
    });
    git(project.dir, 'init', '-q');
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'policies');
    expect((await cli(['apply', '--yes', 'policies'], { cwd: project.dir, emulator })).code).toBe(0);

    await writeFiles(project.dir, {
      'policies/edited.autojoin.yaml': policy('edited', ['before.example', 'after.example']),
      'policies/added.autojoin.yaml': policy('added', ['added.example']),
    });
    await rm(join(project.dir, 'policies/gone.autojoin.yaml'));
    emulator.requests.length = 0;

    const planned = await cli(['plan', '--changed-since', 'HEAD', '--detailed-exitcode', 'policies'], { cwd: project.dir, emulator });
    expect(planned.code, planned.stderr).toBe(2);
    expect(listedScopes()).toEqual(['team/added', 'team/edited']);
    expect(planned.stdout).toContain('team/added');
    expect(planned.stdout).toContain('team/edited');
    expect(planned.stdout).not.toContain('team/gone');
    expect(planned.stderr).toContain('1 scope(s) lost their policy since HEAD (team/gone)');

    git(project.dir, 'add', '-A');
    git(project.dir, 'commit', '-q', '-m', 'change');
    const none = await cli(['plan', '--changed-since', 'HEAD', '--detailed-exitcode', 'policies'], { cwd: project.dir, emulator });
    expect(none.code, none.stderr).toBe(0);
  });

  it('refuses a bad revision and a combination with --prune-from, writing nothing', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'policies/a.autojoin.yaml': policy('a', ['a.example']) });
    git(project.dir, 'init', '-q');
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'policies');
    const bad = await cli(['plan', '--changed-since', 'no-such-rev', 'policies'], { cwd: project.dir, emulator });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--changed-since no-such-rev: git diff failed');
    const both = await cli(['plan', '--changed-since', 'HEAD', '--prune-from', 'HEAD', 'policies'], { cwd: project.dir, emulator });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('--changed-since plans only the changed files, so it never prunes');
  });
});
