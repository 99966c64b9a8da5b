import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cli, policy, tempProject } from './support.js';

let project: { dir: string; cleanup: () => Promise<void> } | undefined;

beforeAll(assertBuilt);
afterEach(async () => project?.cleanup());

describe('without AUTOJOIN_BASE_URL', () => {
  it('runs against the embedded emulator outside CI, says so on stderr, and keeps its state', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const applied = await cli(['apply', '--yes'], { cwd: project.dir });
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain('embedded emulator');
    expect(applied.stdout).toContain('Applied 1, failed 0, skipped 0.');
    expect(existsSync(join(project.dir, '.autojoin-sync/emulator.json'))).toBe(true);
    const planned = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir });
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain('No changes.');
  });

  it('stops with a clear error in CI', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const result = await cli(['plan'], { cwd: project.dir, env: { CI: 'true' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('AUTOJOIN_BASE_URL');
    expect(result.stdout).toBe('');
    expect(existsSync(join(project.dir, '.autojoin-sync'))).toBe(false);
  });

  it('refuses a path that does not exist before starting it: exit 1, no state written', async () => {
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    for (const args of [['plan', 'no-such-dir'], ['apply', 'no-such-dir', '--yes']]) {
      const result = await cli(args, { cwd: project.dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('no-such-dir:1:1: error: no such file or directory');
      expect(result.stderr).not.toContain('embedded emulator');
      expect(existsSync(join(project.dir, '.autojoin-sync'))).toBe(false);
    }
  });
});
