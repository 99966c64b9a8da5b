import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, posts, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

describe('import', () => {
  it('writes canonical files from live state, and plan right after shows no changes', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'acme', ['b.example', 'A.example']);
    await setLive(emulator, 'odd id', ['odd.example'], 'work space');
    project = await tempProject();
    const scopes = ['--scope', 'team/acme', '--scope', 'team/none', '--scope', 'work space/odd id'];
    const imported = await cli(['import', ...scopes, '--out', 'policies', '--component-id', 'cmp_e2e'], { cwd: project.dir, emulator });
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain('team/none has no active autojoin');
    const acme = await readFile(join(project.dir, 'policies/team-acme.autojoin.yaml'), 'utf8');
    expect(acme).toMatch(/scope: acme/);
    expect(acme).toMatch(/- a\.example\n\s*- b\.example/);
    expect(await readFile(join(project.dir, 'policies/team-none.autojoin.yaml'), 'utf8')).toMatch(/domains: \[\]/);
    expect(await readFile(join(project.dir, 'policies/work_space-odd_id.autojoin.yaml'), 'utf8')).toMatch(/odd\.example/);

    const planned = await cli(['plan', '--detailed-exitcode', 'policies'], { cwd: project.dir, emulator });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('No changes. 3 scopes match their policy files.');

    const again = await cli(['import', '--scope', 'team/acme', '--out', 'policies', '--component-id', 'x'], { cwd: project.dir, emulator });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('--force');
    expect(await readFile(join(project.dir, 'policies/team-acme.autojoin.yaml'), 'utf8')).toBe(acme);
    expect(posts(emulator)).toBe(2);
  });

  it('prints to stdout with --out -, taking componentId from the live widgetId, else the project file; without either it says how to give it', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'acme', ['a.example']);
    project = await tempProject({ 'autojoin-sync.yaml': 'defaults:\n  componentId: cmp_project\n' });
    const printed = await cli(['import', '--scope', 'team/acme', '--out', '-'], { cwd: project.dir, emulator });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('scope: acme');
    expect(printed.stdout).toContain('a.example');

    const bare = await tempProject();
    try {
      // The live invitation shows its component (widgetId): import writes it, no flag needed.
      const shown = await cli(['import', '--scope', 'team/acme', '--out', '-'], { cwd: bare.dir, emulator });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('componentId: cmp_e2e');
      // A scope without an active autojoin invitation shows none.
      const missing = await cli(['import', '--scope', 'team/none'], { cwd: bare.dir, emulator });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('--component-id');
    } finally {
      await bare.cleanup();
    }
  });
});
