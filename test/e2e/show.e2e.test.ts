/** `show FILE`: a saved plan rendered after the checks `apply --plan` makes, without network. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

// In CI without a base URL every command that talks to the service stops: show must not need one.
const OFFLINE = { CI: 'true', AUTOJOIN_BASE_URL: undefined, AUTOJOIN_API_KEY: undefined };

describe('show FILE', () => {
  it('renders a saved plan as text, markdown and json, offline', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'a', ['old.example']);
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['new.example']) });
    const planned = await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator });
    expect(planned.code, planned.stderr).toBe(0);
    await emulator.close();
    const text = await cli(['show', 'plan.json'], { cwd: project.dir, env: OFFLINE });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toBe(planned.stdout);
    const markdown = await cli(['show', 'plan.json', '--format', 'markdown'], { cwd: project.dir, env: OFFLINE });
    expect(markdown.stdout).toContain('<details>');
    const json = await cli(['show', 'plan.json', '--format', 'json'], { cwd: project.dir, env: OFFLINE });
    expect(json.stdout).toBe(await readFile(join(project.dir, 'plan.json'), 'utf8'));
  });

  it('refuses a tampered plan, or one with another sha256, as apply --plan does (exit 1)', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['new.example']) });
    await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator });
    const saved = await readFile(join(project.dir, 'plan.json'), 'utf8');
    await writeFile(join(project.dir, 'edited.json'), saved.replace('"added": [\n        "new.example"', '"added": [\n        "evil.example"'));
    const edited = await cli(['show', 'edited.json'], { cwd: project.dir, env: OFFLINE });
    expect(edited.code).toBe(1);
    expect(edited.stdout).toBe('');
    expect(edited.stderr).toContain('edited.json is not a valid plan');
    const pinned = await cli(['show', 'plan.json', '--plan-sha256', '0'.repeat(64), '--format', 'json'], { cwd: project.dir, env: OFFLINE });
    expect(pinned.code).toBe(1);
    expect(JSON.parse(pinned.stdout)).toMatchObject({ outcome: 'error', exitCode: 1 });
  });
});
