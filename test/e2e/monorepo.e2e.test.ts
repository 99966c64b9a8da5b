/**
 * The three-team monorepo (test/support/monorepo.ts; design: "Many projects, one run") through the
 * built CLI, spawned: at its root, from a team folder, and with -C from outside. The in-process
 * cases are in test/projects/monorepo.test.ts.
 */
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, cli } from './support.js';
import { makeMonorepo, MONOREPO_NOW } from '../support/monorepo.js';

let dir: string | undefined;
beforeAll(assertBuilt);
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const env = { AUTOJOIN_NOW: MONOREPO_NOW };

describe('a monorepo of three teams, each with its own project file (spawned)', () => {
  it('validates at the root, from a team folder and with -C from outside; plan names itself and each project; one emulator state at the root', async () => {
    dir = makeMonorepo();
    const root = await cli(['validate'], { cwd: dir, env });
    expect(root.code, root.stderr + root.stdout).toBe(0);
    expect(root.stderr).toContain('0 errors, 0 warnings in 3 files; 4 valid policies');
    const team = await cli(['validate', '..'], { cwd: path.join(dir, 'teams/ops'), env });
    expect(team.code, team.stderr + team.stdout).toBe(0);
    expect(team.stderr).toContain('in 3 files; 4 valid policies');
    const outside = await cli(['-C', dir, 'fmt', '--check'], { cwd: tmpdir(), env });
    expect(outside.code, outside.stderr).toBe(0);

    // plan at the root, with -C from outside: every team, each under its own project file.
    const planned = await cli(['-C', dir, 'plan', '--detailed-exitcode'], { cwd: tmpdir(), env });
    expect(planned.code, planned.stderr).toBe(2);
    for (const team of ['eng', 'ops', 'sales']) expect(planned.stdout).toContain(`teams/${team}/autojoin-sync.yaml, owner ${team}`);

    const applied = await cli(['apply', '--yes'], { cwd: path.join(dir, 'teams/sales'), env });
    expect(applied.code, applied.stderr).toBe(0);
    expect(existsSync(path.join(dir, '.autojoin-sync/emulator.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'teams/sales/.autojoin-sync'))).toBe(false);
    const selected = await cli(['--project', 'teams/sales/autojoin-sync.yaml', 'plan', '--detailed-exitcode'], { cwd: dir, env });
    expect(selected.code, selected.stdout + selected.stderr).toBe(0);
    expect(selected.stderr).toContain('notice: --project teams/sales/autojoin-sync.yaml: 2 policy files of other projects skipped');
  });
});
