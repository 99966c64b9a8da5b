import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, liveDomains, policy, posts, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';
import { git } from '../support/git.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));


describe('--prune-from GITREV', () => {
  it('clears scopes whose policy file was deleted since GITREV, within the removal limits; --no-prune leaves them', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({
      'policies/keep.autojoin.yaml': policy('keep', ['keep.example']),
      'policies/gone.autojoin.yaml': policy('gone', ['gone.example', 'gone2.example']),
      'policies/README.md': 'not a policy\n',
    });
    git(project.dir, 'init', '-q');
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'policies');
    expect((await cli(['apply', '--yes', 'policies'], { cwd: project.dir, emulator })).code).toBe(0);
    await rm(join(project.dir, 'policies/gone.autojoin.yaml'));
    git(project.dir, 'commit', '-q', '-a', '-m', 'drop gone');
    emulator.requests.length = 0;

    const untouched = await cli(['plan', '--detailed-exitcode', '--no-prune', 'policies'], { cwd: project.dir, emulator });
    expect(untouched.code).toBe(0);

    const planned = await cli(['plan', '--detailed-exitcode', '--prune-from', 'HEAD~1', 'policies'], { cwd: project.dir, emulator });
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('team/gone');
    expect(planned.stdout).toContain('policy file deleted');
    expect(planned.stdout).toContain('0 to create, 0 to update, 1 to clear, 1 unchanged.');

    // A deletion needs no --allow-empty, but its domains count against --max-removals.
    const refused = await cli(['apply', '--yes', '--max-removals', '1', '--prune-from', 'HEAD~1', 'policies'], { cwd: project.dir, emulator });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--max-removals 2');
    expect(posts(emulator)).toBe(0);

    const applied = await cli(['apply', '--yes', '--prune-from', 'HEAD~1', 'policies'], { cwd: project.dir, emulator });
    expect(applied.code).toBe(0);
    expect(liveDomains(emulator.data(), 'gone')).toBeNull();
    expect(liveDomains(emulator.data(), 'keep')).toEqual(['keep.example']);
    expect(posts(emulator)).toBe(1);
  });

  it('works from a subdirectory and fails clearly on an unknown revision', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'sub/a.autojoin.yaml': policy('a', ['a.example']), 'sub/b.autojoin.yaml': policy('b', ['b.example']) });
    git(project.dir, 'init', '-q');
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'one');
    const cwd = join(project.dir, 'sub');
    expect((await cli(['apply', '--yes'], { cwd, emulator })).code).toBe(0);
    await rm(join(cwd, 'b.autojoin.yaml'));
    const planned = await cli(['plan', '--format', 'json', '--prune-from', 'HEAD'], { cwd, emulator });
    expect(planned.code).toBe(0);
    expect(JSON.parse(planned.stdout)).toMatchObject({ changes: [{ key: 'team/b', kind: 'clear', reason: 'pruned' }] });

    const unknown = await cli(['plan', '--prune-from', 'no-such-rev'], { cwd, emulator });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('--prune-from no-such-rev');
  });
});
