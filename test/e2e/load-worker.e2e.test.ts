/**
 * The built CLI reads and checks policy files in a worker thread when there are many
 * (src/policy/load-worker.ts); the program run in-process from src/ loads them in-process. Both
 * must print the same plan and diagnostics and exit the same, also when a file fails early
 * (the plan stops at that batch, and the rest still loads for its diagnostics).
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MIN_WORKER_FILES } from '../../src/policy/load-worker.js';
import { shardIndexOf } from '../../src/plan/shard.js';
import type { Emulator } from '../../src/emulator/index.js';
import { runInProcess } from '../support/in-process.js';
import { commitAll, git } from '../support/git.js';
import { cli, policy, SECRET, startTestEmulator, tempProject, useEmulatorProject, writeFiles, type TempProject } from './support.js';

let emulator: Emulator | undefined;
let project: TempProject | undefined;
useEmulatorProject(() => ({ emulator, project }));

const FILES = MIN_WORKER_FILES + 20;

/** Writes FILES policy files (with subdomain warnings); file number `bad` is not a policy. */
async function repository(bad?: number): Promise<TempProject> {
  const files: Record<string, string> = {};
  for (let n = 1; n <= FILES; n++) {
    const name = `teams/p${String(n).padStart(4, '0')}.autojoin.yaml`;
    files[name] = n === bad ? 'scope: [not, a, scope]\n' : policy(`s${n}`, [`d${n}.example.com`, `www.d${n}.example.com`]);
  }
  const made = await tempProject();
  await writeFiles(made.dir, files);
  return made;
}

/** A module the spawned CLI preloads: it writes how many worker threads the run started. */
async function workerProbe(dir: string): Promise<{ env: Record<string, string>; started: () => Promise<number> }> {
  const probe = join(dir, 'probe.mjs');
  const out = join(dir, 'workers.txt');
  await writeFile(probe, `import { writeFileSync } from 'node:fs';\nlet n = 0;\nprocess.on('worker', () => n++);\nprocess.on('exit', () => writeFileSync(${JSON.stringify(out)}, String(n)));\n`);
  return { env: { NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` }, started: async () => Number(await readFile(out, 'utf8')) };
}

const stable = (text: string): string => text.replace(/"createdAt": "[^"]*"/g, '"createdAt": "…"');

/** @returns the spawned CLI's run (in a worker) and the in-process run (no worker) of `args` in `dir` */
async function bothWays(dir: string, args: string[], from: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ spawned: Awaited<ReturnType<typeof cli>>; inProcess: Awaited<ReturnType<typeof runInProcess>>; workers: number }> {
  const live = emulator as Emulator;
  const probe = await workerProbe(dir);
  const cwd = from.cwd ?? dir;
  const spawned = await cli(args, { cwd, emulator: live, env: { ...from.env, ...probe.env } });
  const inProcess = await runInProcess(args, { cwd, env: { ...from.env, AUTOJOIN_BASE_URL: live.url, AUTOJOIN_API_KEY: SECRET } });
  return { spawned, inProcess, workers: await probe.started() };
}

describe('plan with the policy loader in a worker thread (built CLI)', () => {
  it('prints the same plan JSON and exits as the loader in-process', async () => {
    emulator = await startTestEmulator();
    project = await repository();
    const { spawned, inProcess, workers } = await bothWays(project.dir, ['plan', '--format', 'json', '--no-prune']);
    expect(workers).toBe(1);
    expect(spawned.code).toBe(inProcess.code);
    expect(stable(spawned.stdout)).toBe(stable(inProcess.stdout));
    expect(JSON.parse(spawned.stdout)).toMatchObject({ changes: expect.arrayContaining([expect.objectContaining({ key: 'team/s1' })]) });
    expect(spawned.stderr).toContain('subdomain');
    expect(spawned.stderr).toBe(inProcess.stderr);
  });

  it.each([
    [5, 'in the first batch (loaded on the main thread while the thread starts)'],
    [300, 'in a batch the worker posts'],
  ])('a file with an error (file %i), %s: the same diagnostics and exit code, and nothing planned', async (bad) => {
    emulator = await startTestEmulator();
    project = await repository(bad);
    const { spawned, inProcess, workers } = await bothWays(project.dir, ['plan', '--format', 'json', '--no-prune']);
    expect(workers).toBe(1);
    expect(spawned.code).not.toBe(0);
    expect(spawned.code).toBe(inProcess.code);
    expect(spawned.stdout).toBe(inProcess.stdout);
    const findings = (text: string): string[] => text.split('\n').filter((line) => line.includes('.autojoin.yaml:'));
    expect(spawned.stderr).toBe(inProcess.stderr);
    expect(findings(spawned.stderr).join('\n')).toContain(`p${String(bad).padStart(4, '0')}.autojoin.yaml`);
  });

  it('meets the other features the same way: a project file in a subfolder, run from outside with -C, rules, expiry, pruning, a shard', async () => {
    emulator = await startTestEmulator();
    const files: Record<string, string> = {
      'infra/autojoin-sync.yaml': 'rules:\n  - name: no agencies\n    deny: ["*.agency.example"]\n    level: warning\n',
      'infra/teams/gone.autojoin.yaml': policy('gone', ['gone.example.com']),
    };
    for (let n = 1; n <= FILES; n++) files[`infra/teams/p${String(n).padStart(4, '0')}.autojoin.yaml`] = policy(`s${n}`, [`d${n}.example.com`, ...(n % 50 === 0 ? [`x${n}.agency.example`] : [])]);
    files['infra/teams/p0007.autojoin.yaml'] = 'scope: s7\nscopeType: team\ncomponentId: cmp_e2e\ndomains:\n  - d7.example.com\n  - domain: old7.example.com\n    expires: 2026-01-31\n';
    project = await tempProject(files);
    commitAll(project.dir);
    const env = { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: SECRET };
    const applied = await runInProcess(['-C', project.dir, 'apply', '--yes', '--project', 'infra/autojoin-sync.yaml', 'infra'], { cwd: tmpdir(), env: { ...env, AUTOJOIN_NOW: '2026-01-15' } });
    expect(applied.code, applied.stderr).toBe(0);
    await rm(join(project.dir, 'infra/teams/gone.autojoin.yaml'));
    git(project.dir, 'commit', '-q', '-am', 'gone');
    // The shard that holds the pruned scope, so its clear (or its listing as not managed here) is in this plan.
    const shard = `${shardIndexOf('team/gone', 3)}/3`;
    const args = ['-C', project.dir, 'plan', '--project', 'infra/autojoin-sync.yaml', '--shard', shard, '--format', 'json', 'infra'];
    const { spawned, inProcess, workers } = await bothWays(project.dir, args, { cwd: tmpdir(), env: { AUTOJOIN_NOW: '2026-03-01' } });
    expect(workers).toBe(1);
    expect(spawned.code, spawned.stderr).toBe(inProcess.code);
    expect(stable(spawned.stdout)).toBe(stable(inProcess.stdout));
    expect(spawned.stderr).toBe(inProcess.stderr);
    expect(spawned.stderr).toContain('rule-deny');
    expect(spawned.stderr).toContain('old7.example.com expired on 2026-01-31');
    const plan = JSON.parse(spawned.stdout) as { shard: string; changes: { key: string; kind: string }[] };
    expect(plan.shard).toBe(shard);
    expect(plan.changes).toContainEqual(expect.objectContaining({ key: 'team/gone', kind: 'clear' }));
  });
});
