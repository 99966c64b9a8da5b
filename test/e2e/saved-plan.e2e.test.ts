import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, expectFileHasNoSecret, liveDomains, policy, posts, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

async function setup(): Promise<void> {
  emulator = await startTestEmulator();
  await setLive(emulator, 'a', ['old.example']);
  await setLive(emulator, 'b', ['b.example']);
  project = await tempProject({
    'a.autojoin.yaml': policy('a', ['new.example']),
    'b.autojoin.yaml': policy('b', ['b.example']),
  });
  const saved = await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator });
  expect(saved.code).toBe(0);
  await expectFileHasNoSecret(join(project.dir, 'plan.json'));
  emulator.requests.length = 0;
}

describe('apply --plan FILE', () => {
  it('applies exactly the saved plan when the live state has not moved', async () => {
    await setup();
    const result = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Applied 1, failed 0, skipped 0.');
    expect(liveDomains(emulator.data(), 'a')).toEqual(['new.example']);
    expect(posts(emulator)).toBe(1);
  });

  it('refuses a stale plan with exit 4 and writes nothing', async () => {
    await setup();
    // Someone changes an unchanged scope of the plan after it was made: still stale.
    await setLive(emulator, 'b', ['b.example', 'intruder.example']);
    const before = emulator.data();
    emulator.requests.length = 0;
    const result = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('stale');
    expect(result.stderr).toContain('team/b');
    expect(posts(emulator)).toBe(0);
    expect(emulator.data()).toEqual(before);
  });

  it('refuses a plan made against another service with exit 1 and writes nothing', async () => {
    await setup();
    const file = join(project.dir, 'plan.json');
    const saved = JSON.parse(await readFile(file, 'utf8')) as { target: string };
    await writeFile(file, JSON.stringify({ ...saved, target: 'https://invitations.example.com' }, null, 2));
    const result = await cli(['apply', '--plan', 'plan.json', '--yes'], { cwd: project.dir, emulator });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the saved plan was made against https://invitations.example.com, but this run targets http://127.0.0.1:');
    expect(posts(emulator)).toBe(0);
  });

  it('refuses a saved plan that breaks a safety limit with exit 3', async () => {
    await setup();
    const result = await cli(['apply', '--plan', 'plan.json', '--yes', '--max-removals', '0'], { cwd: project.dir, emulator });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('--max-removals');
    expect(posts(emulator)).toBe(0);
  });

  it('rejects a file that is not a plan with exit 1', async () => {
    await setup();
    const result = await cli(['apply', '--plan', 'a.autojoin.yaml', '--yes'], { cwd: project.dir, emulator });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a.autojoin.yaml');
    expect(posts(emulator)).toBe(0);
  });
});
