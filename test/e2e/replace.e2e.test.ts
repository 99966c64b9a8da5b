/** `--replace TYPE/ID`: write a scope that already matches, e.g. to send a new componentId. */
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, posts, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

describe('--replace', () => {
  it('plans and applies a write of a scope that matches, sending the file componentId', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'a', ['a.example']);
    emulator.requests.length = 0;
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']), 'b.autojoin.yaml': policy('b', []) });
    const plain = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('No changes');
    const planned = await cli(['plan', '--replace', 'team/a', '--format', 'json'], { cwd: project.dir, emulator });
    expect(planned.code, planned.stderr).toBe(0);
    expect(JSON.parse(planned.stdout)).toMatchObject({ changes: [{ key: 'team/a', kind: 'update', reason: 'replaced', added: [], removed: [], componentId: 'cmp_e2e' }] });
    const text = await cli(['plan', '--replace', 'team/a'], { cwd: project.dir, emulator });
    expect(text.stdout).toContain('--replace');
    const applied = await cli(['apply', '--yes', '--replace', 'team/a'], { cwd: project.dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    expect(posts(emulator)).toBe(1);
  });

  it('a componentId change needs no --replace: the service shows the component (widgetId), so it is an update', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'a', ['a.example']);
    emulator.requests.length = 0;
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']).replace('cmp_e2e', 'cmp_new') });
    const plain = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(plain.code, plain.stderr).toBe(2);
    expect(plain.stdout).toContain('componentId: "cmp_e2e" → "cmp_new"');
    const applied = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    expect(emulator.data().scopes['team/a']?.componentId).toBe('cmp_new');
    expect((await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator })).code).toBe(0);
  });

  it('a --replace target no policy file declares is an error', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const run = await cli(['plan', '--replace', 'team/zz'], { cwd: project.dir, emulator });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('team/zz matches no scope');
  });
});
