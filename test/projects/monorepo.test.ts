/**
 * Many projects, one run (design: "Many projects, one run", issue 47): the three-team monorepo of
 * test/support/monorepo.ts through the CLI in-process, at its root, from a team folder and with
 * -C from outside. The spawned twins are in test/e2e/monorepo.e2e.test.ts.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../support/in-process.js';
import { makeMonorepo, MONOREPO_NOW } from '../support/monorepo.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function monorepo(extra: Record<string, string | null> = {}): string {
  const dir = makeMonorepo(extra);
  made.push(dir);
  return dir;
}

const env = { AUTOJOIN_NOW: MONOREPO_NOW, AUTOJOIN_BASE_URL: undefined, AUTOJOIN_API_KEY: undefined, AUTOJOIN_ACCESS_TOKEN: undefined };
const cli = (cwd: string, ...args: string[]) => runInProcess(args, { cwd, env });

describe('the three-team monorepo fixture', () => {
  it('each team validates under its own project file, from its folder', async () => {
    const dir = monorepo();
    for (const team of ['eng', 'ops', 'sales']) {
      const result = await cli(path.join(dir, 'teams', team), 'validate');
      expect(result.stderr).toContain('0 errors, 0 warnings in 1 file');
      expect(result.code, result.stderr + result.stdout).toBe(0);
    }
  });
});
