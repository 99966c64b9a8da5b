/** Text and markdown plans show the scopeName and metadata apply will send; markdown carries the refusal caution. */
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

const WITH_FIELDS = { scopeName: 'Acme Engineering', metadata: '{tier: gold}' };

describe('the fields a plan sends', () => {
  it('a create shows the scopeName and metadata it sends, in text and markdown', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example'], WITH_FIELDS) });
    const text = await cli(['plan'], { cwd: project.dir, emulator });
    expect(text.stdout).toContain('+ scopeName: "Acme Engineering"');
    expect(text.stdout).toContain('+ metadata: {"tier":"gold"}');
    const markdown = await cli(['plan', '--format', 'markdown'], { cwd: project.dir, emulator });
    expect(markdown.stdout).toContain('- sent: scopeName: &#34;Acme Engineering&#34;');
    expect(markdown.stdout).toContain('- sent: metadata: {&#34;tier&#34;:&#34;gold&#34;}');
  });

  it('an update shows the fields it sends again unchanged', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example', 'b.example'], WITH_FIELDS) });
    expect((await cli(['apply', '--yes'], { cwd: project.dir, emulator })).code).toBe(0);
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example'], WITH_FIELDS) });
    const text = await cli(['plan'], { cwd: project.dir, emulator });
    expect(text.stdout).toContain('- b.example');
    expect(text.stdout).toContain('metadata: {"tier":"gold"} (unchanged)');
  });

  it('plan --format markdown has the caution the pull-request comment has when apply would refuse', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'a', ['a1.example', 'a2.example', 'a3.example', 'a4.example']);
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a1.example']) });
    const markdown = await cli(['plan', '--format', 'markdown', '--max-removal-percent', '50'], { cwd: project.dir, emulator });
    expect(markdown.stdout).toMatch(/^> \[!CAUTION\]\n> \*\*apply would refuse this plan\*\* \(exit code 3\):\n> - plan removes more than 50%/);
    const safe = await cli(['plan', '--format', 'markdown'], { cwd: project.dir, emulator });
    expect(safe.stdout).not.toContain('CAUTION');
  });
});
