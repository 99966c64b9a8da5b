/** import --scopes-from (a file, stdin, or a plan JSON) and the per-kind warning summary after an import. */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { parseScopeList } from '../../src/cli/scopes-from.js';
import { cli, setLive, startTestEmulator, tempProject, useEmulatorProject, writeFiles, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

const COMPONENT = ['--component-id', 'cmp_e2e'];

/** 12 scopes whose live domains each hold a subdomain (a warning), and one without autojoin. */
async function seedEstate(): Promise<void> {
  emulator = await startTestEmulator();
  for (let i = 1; i <= 12; i++) await setLive(emulator, `s${i}`, [`acme${i}.com`, `eng.acme${i}.com`]);
}

describe('import --scopes-from', () => {
  it('reads one TYPE/ID a line, skipping comments and blank lines, and summarizes warnings per kind', async () => {
    await seedEstate();
    const list = ['# the estate', '', ...Array.from({ length: 12 }, (_, i) => `team/s${i + 1}`), '  team/none  ', '# end'].join('\n');
    project = await tempProject({ 'scopes.txt': `${list}\n` });
    const run = await cli(['import', '--scopes-from', 'scopes.txt', '--out', 'policies', ...COMPONENT], { cwd: project.dir, emulator });
    expect(run.code, run.stderr).toBe(0);
    expect((await readdir(join(project.dir, 'policies'))).length).toBe(13);
    // Three of a kind, then one line counting the rest: the one wording of validate, plan and import.
    expect(run.stderr.match(/warning: eng\.acme\d+\.com is a subdomain/gu)).toHaveLength(3);
    expect(run.stderr).toContain('and 9 more subdomain warnings; --verbose shows all');
    expect(run.stderr).toContain('wrote 13 policy files in policies');
    expect(run.stderr).toContain('team/none has no active autojoin');

    // Another checkout: import refuses scopes the files under policies/ declare now.
    const other = await tempProject({ 'scopes.txt': `${list}\n` });
    const verbose = await cli(['import', '--scopes-from', 'scopes.txt', '--out', 'again', '--verbose', ...COMPONENT], { cwd: other.dir, emulator });
    await other.cleanup();
    expect(verbose.stderr.match(/^again\/team-s\d+\.autojoin\.yaml:\d+:\d+: warning: eng\.acme\d+\.com is a subdomain/gm)).toHaveLength(12);
    expect(verbose.stderr).not.toContain('--verbose shows all');

    const planned = await cli(['plan', '--detailed-exitcode', '--quiet', 'policies'], { cwd: project.dir, emulator });
    expect(planned.code).toBe(0);
  });

  it('reads stdin with -, merges with --scope, and takes a plan JSON scope list', async () => {
    await seedEstate();
    project = await tempProject();
    const stdin = await cli(['import', '--scopes-from', '-', '--scope', 'team/s3', '--out', '-', ...COMPONENT], { cwd: project.dir, emulator, input: 'team/s1\nteam/s2\n' });
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(stdin.stdout.match(/^scope: s\d+$/gm)).toEqual(['scope: s3', 'scope: s1', 'scope: s2']);

    await writeFiles(project.dir, { 'p/a.autojoin.yaml': 'scope: s4\nscopeType: team\ncomponentId: c\ndomains: [acme4.com]\n', 'p/b.autojoin.yaml': 'scope: s5\nscopeType: team\ncomponentId: c\ndomains: []\n' });
    const plan = await cli(['plan', '--format', 'json', 'p'], { cwd: project.dir, emulator });
    // From a directory that declares neither (import refuses a scope a policy file of its run declares, with --out - too).
    const elsewhere = await mkdtemp(join(tmpdir(), 'autojoin-import-'));
    const fromPlan = await cli(['import', '--scopes-from', '-', '--out', '-', ...COMPONENT], { cwd: elsewhere, emulator, input: plan.stdout });
    await rm(elsewhere, { recursive: true, force: true });
    expect(fromPlan.code, fromPlan.stderr).toBe(0);
    expect(fromPlan.stdout.match(/^scope: s\d+$/gm)).toEqual(['scope: s4', 'scope: s5']);
  });

  it('refuses a bad line with file:line and writes nothing; an empty list is an error', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'scopes.txt': 'team/a\n\nnot-a-key\n', 'empty.txt': '# nothing\n' });
    const bad = await cli(['import', '--scopes-from', 'scopes.txt', '--out', 'out', ...COMPONENT], { cwd: project.dir, emulator });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: scopes.txt:3: "not-a-key" is not a scope key');
    await expect(readdir(join(project.dir, 'out'))).rejects.toThrow();
    const empty = await cli(['import', '--scopes-from', 'empty.txt', ...COMPONENT], { cwd: project.dir, emulator });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('nothing to import');
    const none = await cli(['import', ...COMPONENT], { cwd: project.dir, emulator });
    expect(none.stderr).toContain('--scopes-from FILE');
  });
});

describe('parseScopeList', () => {
  it('keeps ids with spaces and slashes, trims lines, and names the line of a bad one', () => {
    expect(parseScopeList('work space/odd id\r\n team/a/b \n#team/c\n', 'x')).toEqual([
      { scopeType: 'work space', scope: 'odd id' },
      { scopeType: 'team', scope: 'a/b' },
    ]);
    expect(() => parseScopeList('team/a\n/b\n', 'list.txt')).toThrow(/^list\.txt:2: /);
    expect(() => parseScopeList('{"formatVersion": 99}', 'plan.json')).toThrow(/plan\.json has formatVersion 99/);
  });
});
