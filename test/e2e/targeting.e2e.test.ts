/**
 * Targeting as Terraform's -target: --scope and --exclude-scope on plan, apply and import,
 * --shard on apply, and --max-removal-percent beating the project file's limit.
 */
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, liveDomains, policy, posts, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

async function setup(live: Record<string, string[]> = {}): Promise<void> {
  emulator = await startTestEmulator();
  for (const [scope, domains] of Object.entries(live)) await setLive(emulator, scope, domains);
  emulator.requests.length = 0;
  project = await tempProject({
    'a.autojoin.yaml': policy('a', ['a.example']),
    'b.autojoin.yaml': policy('b', ['b.example']),
    'c.autojoin.yaml': policy('c', ['c.example']),
  });
}

describe('--scope and --exclude-scope', () => {
  it('plan --scope plans only the named scopes; --exclude-scope leaves scopes out', async () => {
    await setup();
    const only = await cli(['plan', '--scope', 'team/a', '--scope', 'team/c', '--format', 'json'], { cwd: project.dir, emulator });
    expect(only.code, only.stderr).toBe(0);
    expect((JSON.parse(only.stdout) as { changes: { key: string }[] }).changes.map((c) => c.key)).toEqual(['team/a', 'team/c']);
    const without = await cli(['plan', '--exclude-scope', 'team/b', '--format', 'json'], { cwd: project.dir, emulator });
    expect((JSON.parse(without.stdout) as { changes: { key: string }[] }).changes.map((c) => c.key)).toEqual(['team/a', 'team/c']);
  });

  it('a target no policy file declares is an error naming it (exit 1)', async () => {
    await setup();
    const typo = await cli(['plan', '--scope', 'team/aa'], { cwd: project.dir, emulator });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('team/aa matches no scope the policy files declare');
    const excluded = await cli(['apply', '--yes', '--exclude-scope', 'team/zz'], { cwd: project.dir, emulator });
    expect(excluded.code).toBe(1);
    expect(excluded.stderr).toContain('team/zz matches no scope');
    expect(posts(emulator)).toBe(0);
    const bad = await cli(['plan', '--scope', 'nokey'], { cwd: project.dir, emulator });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--scope: "nokey" is not a scope key');
  });

  it('apply --scope writes only that scope', async () => {
    await setup();
    const applied = await cli(['apply', '--yes', '--scope', 'team/b'], { cwd: project.dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    expect(posts(emulator)).toBe(1);
    expect(liveDomains(emulator.data(), 'b')).toEqual(['b.example']);
    expect(liveDomains(emulator.data(), 'a')).toBeNull();
  });

  it('apply --shard K/N without --plan is refused: the safety limits would be decided per shard (merge-plans first)', async () => {
    await setup();
    const refused = await cli(['apply', '--yes', '--shard', '1/2'], { cwd: project.dir, emulator });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('give --plan FILE (from merge-plans)');
    expect(posts(emulator)).toBe(0);
  });

  it('import --exclude-scope leaves a listed scope out', async () => {
    emulator = await startTestEmulator();
    project = await tempProject();
    const out = await cli(['import', '--scope', 'team/x', '--scope', 'team/y', '--exclude-scope', 'team/y', '--component-id', 'cmp_1', '--out', '-'], {
      cwd: project.dir,
      emulator,
    });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('scope: x');
    expect(out.stdout).not.toContain('scope: y');
  });
});

describe('--max-removal-percent', () => {
  it('beats safety.maxRemovalPercent of the project file, on apply and plan', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'a', ['a1.example', 'a2.example', 'a3.example', 'a4.example']);
    project = await tempProject({
      'autojoin-sync.yaml': 'safety:\n  maxRemovalPercent: 90\n',
      'a.autojoin.yaml': policy('a', ['a1.example']),
    });
    const refused = await cli(['apply', '--yes', '--max-removal-percent', '50'], { cwd: project.dir, emulator });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('run again with --max-removal-percent 75');
    const planned = await cli(['plan', '--max-removal-percent', '50'], { cwd: project.dir, emulator });
    expect(planned.stderr).toContain('apply would refuse this plan');
    const bad = await cli(['apply', '--yes', '--max-removal-percent', '150'], { cwd: project.dir, emulator });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('expected a number from 0 to 100');
    const applied = await cli(['apply', '--yes', '--max-removal-percent', '75'], { cwd: project.dir, emulator });
    expect(applied.code, applied.stderr).toBe(0);
    expect(liveDomains(emulator.data(), 'a')).toEqual(['a1.example']);
  });
});
