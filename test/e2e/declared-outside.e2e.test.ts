/**
 * A scope declared outside the paths does not block pruning in silence: a deleted policy whose
 * scope id a file elsewhere in the repository names (even a broken fixture) is not pruned, and
 * the plan says so, naming the scope and the file ("declared outside the paths in FILE:LINE;
 * not pruned"), in text, markdown and JSON; without --verbose the text names the first five.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, startTestEmulator, tempProject, useEmulatorProject, writeFiles, type TempProject } from './support.js';
import { git } from '../support/git.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

describe('a scope declared outside the paths', () => {
  it('is named with its file and line, in every format; --verbose lists them all', async () => {
    emulator = await startTestEmulator();
    const gone = Array.from({ length: 7 }, (_, index) => `gone-${index}`);
    const files: Record<string, string> = { 'policies/keep.autojoin.yaml': policy('keep', ['keep.example']) };
    for (const id of gone) files[`policies/${id}.autojoin.yaml`] = policy(id, [`${id}.example`]);
    project = await tempProject(files);
    git(project.dir, 'init', '-q');
    git(project.dir, 'add', '.');
    git(project.dir, 'commit', '-q', '-m', 'policies');
    expect((await cli(['apply', '--yes', 'policies'], { cwd: project.dir, emulator })).code).toBe(0);
    for (const id of gone) await rm(join(project.dir, `policies/${id}.autojoin.yaml`));
    // A broken fixture names the first scope id (a YAML error later on); a tidy one names the rest.
    await writeFiles(project.dir, {
      'fixtures/broken.autojoin.yaml': '# a fixture\nscope: gone-0\ndomains: [unclosed\n',
      'fixtures/others.autojoin.yaml': gone.slice(1).map((id) => policy(id, [`${id}.example`])).join('---\n'),
    });
    git(project.dir, 'add', '-A');
    git(project.dir, 'commit', '-q', '-m', 'drop the gone scopes; fixtures');

    const text = await cli(['plan', 'policies'], { cwd: project.dir, emulator });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('7 scopes no policy file under the paths declares are declared by a file outside them: not pruned.');
    expect(text.stdout).toContain('team/gone-0: declared outside the paths in fixtures/broken.autojoin.yaml:2; not pruned');
    expect(text.stdout).toContain('team/gone-2: declared outside the paths in fixtures/others.autojoin.yaml:7; not pruned');
    expect(text.stdout).toContain('…and 2 more (--verbose lists them all)');
    expect(text.stdout).not.toContain('team/gone-6:');

    const verbose = await cli(['plan', 'policies', '--verbose'], { cwd: project.dir, emulator });
    for (const id of gone) expect(verbose.stdout).toContain(`team/${id}: declared outside the paths in fixtures/`);

    const markdown = await cli(['plan', 'policies', '--format', 'markdown'], { cwd: project.dir, emulator });
    expect(markdown.stdout).toContain('team/gone-6: declared outside the paths in fixtures/others.autojoin.yaml:');

    const json = await cli(['plan', 'policies', '--format', 'json'], { cwd: project.dir, emulator });
    const plan = JSON.parse(json.stdout) as { declaredOutside?: { key: string; file: string; line: number }[] };
    expect(plan.declaredOutside?.[0]).toEqual({ key: 'team/gone-0', file: 'fixtures/broken.autojoin.yaml', line: 2 });
    expect(plan.declaredOutside).toHaveLength(7);

    // A saved plan that names them is still a valid plan: shown and applied as any other.
    expect((await cli(['plan', 'policies', '--out', 'saved.json'], { cwd: project.dir, emulator })).code).toBe(0);
    const show = await cli(['show', 'saved.json'], { cwd: project.dir });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('team/gone-0: declared outside the paths in fixtures/broken.autojoin.yaml:2; not pruned');
    const apply = await cli(['apply', '--plan', 'saved.json', '--yes'], { cwd: project.dir, emulator });
    expect(apply.code, apply.stderr).toBe(0);
  });
});
