/**
 * One verdict through both doors (design.md, "One verdict"; issue 46): one table of requests, each
 * run through the CLI's program and through the action's `run()`, in-process, each over its own
 * real git repository and emulator set up the same way; the exit codes, the refusals (what apply
 * refuses, what plan cautions) and what was written must be the same.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyData, startEmulator, type Emulator, type EmulatorData } from '../../src/emulator/index.js';
import { runInProcess } from '../support/in-process.js';
import { KEY, reposClosedAfterEach, type Repo } from '../meetings/support.js';
import { addAfterRunHook } from '../../src/commands/after-run.js';

const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore());
vi.mock('@actions/core', () => core);
const { run } = await import('../../src/action/main.js');

const DAY = '2026-03-01';
const openRepo = reposClosedAfterEach();

/** What a run through one door answered. */
interface Answer {
  code: number;
  /** The refusals of apply, or the cautions of plan, one line each (the words of the verdict). */
  verdict: string[];
  /** The text a person reads (CLI stderr + stdout; the action's failure, warnings and job summary). */
  text: string;
  /** The action's outputs (plan-json, plan-sha256…); {} for the CLI. */
  outputs?: Record<string, string>;
}

let temp: string;
const home = process.cwd();
beforeEach(async () => {
  process.chdir(home);
  temp = await mkdtemp(path.join(tmpdir(), 'parity-'));
  for (const name of ['AUTOJOIN_API_KEY', 'AUTOJOIN_ACCESS_TOKEN', 'AUTOJOIN_BASE_URL', 'VORTEX_API_KEY', 'AUTOJOIN_LOG', 'AUTOJOIN_LISTING', 'GITHUB_EVENT_PATH', 'CI']) vi.stubEnv(name, undefined);
});
afterEach(async () => {
  process.chdir(home);
  vi.unstubAllEnvs();
  await rm(temp, { recursive: true, force: true });
});

/** The CLI, in-process, in `dir` against `emulator`. */
async function cli(dir: string, emulator: Emulator, args: string[], day = DAY): Promise<Answer> {
  const result = await runInProcess(args, { cwd: dir, env: { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: KEY, AUTOJOIN_NOW: day } });
  const cautions = [...result.stderr.matchAll(/^warning: apply would refuse this plan: (.*)$/gmu)].map((match) => match[1] ?? '');
  const refused = [...result.stderr.matchAll(/^error: (.*)$/gmu)].map((match) => match[1] ?? '');
  return { code: result.code ?? -1, verdict: cautions.length > 0 ? cautions : refused, text: `${result.stderr}\n${result.stdout}` };
}

/** The action's run(), in-process, with `dir` as its workspace, against `emulator`. */
async function action(dir: string, emulator: Emulator, inputs: Record<string, string>, day = DAY): Promise<Answer> {
  vi.clearAllMocks();
  vi.stubEnv('AUTOJOIN_NOW', day);
  vi.stubEnv('GITHUB_WORKSPACE', dir);
  vi.stubEnv('RUNNER_TEMP', temp);
  vi.stubEnv('GITHUB_STEP_SUMMARY', path.join(temp, 'summary.md'));
  vi.stubEnv('GITHUB_ACTION', 'parity');
  vi.stubEnv('GITHUB_EVENT_NAME', 'push');
  const all: Record<string, string> = { 'base-url': emulator.url, 'api-key': KEY, path: '.', comment: 'false', ...inputs };
  core.getInput.mockImplementation((name: string) => all[name] ?? '');
  await run();
  const outputs = Object.fromEntries(core.setOutput.mock.calls) as Record<string, string>;
  const warnings = core.warning.mock.calls.map((call) => String(call[0]));
  const failed = core.setFailed.mock.calls.map((call) => call[0]);
  const cautions = warnings.filter((line) => line.startsWith('apply would refuse this plan: ')).map((line) => line.slice('apply would refuse this plan: '.length));
  const summary = core.summary.addRaw.mock.calls.map((call) => String(call[0])).join('\n');
  return { code: Number(outputs['exit-code']), verdict: cautions.length > 0 ? cautions : failed, text: [...failed, ...warnings, summary].join('\n'), outputs };
}

/**
 * The sharded flow through one door: plan --shard K/2 for each K, merge-plans of the parts, then
 * apply --plan merged --shard K/2 for each K (each apply only when the merge made a plan).
 * @returns the merge's answer and the applies'
 */
async function sharded(door: 'cli' | 'action', r: Repo): Promise<{ merge: Answer; applies: Answer[] }> {
  const shards = ['1/2', '2/2'];
  if (door === 'cli') {
    for (const shard of shards) expect((await cli(r.dir, r.emulator, ['plan', '--shard', shard, '--out', `part-${shard[0]}.json`, '.'])).code).toBeLessThan(3);
    const merge = await cli(r.dir, r.emulator, ['merge-plans', 'part-1.json', 'part-2.json', '--out', 'merged.json']);
    if (merge.code !== 0) return { merge, applies: [] };
    const pin = digestOf(merge.text);
    const applies = [];
    for (const shard of shards) applies.push(await cli(r.dir, r.emulator, ['apply', '--plan', 'merged.json', '--plan-sha256', pin, '--shard', shard, '--yes']));
    return { merge, applies };
  }
  const parts = [];
  for (const shard of shards) {
    const part = await action(r.dir, r.emulator, { command: 'plan', shard });
    expect(part.code).toBeLessThan(3);
    parts.push(part.outputs?.['plan-json'] ?? '');
  }
  const merge = await action(r.dir, r.emulator, { command: 'merge-plans', 'plan-files': parts.join('\n') });
  if (merge.code !== 0 && merge.code !== 2) return { merge, applies: [] };
  const applies = [];
  for (const shard of shards) applies.push(await action(r.dir, r.emulator, { command: 'apply', 'plan-file': merge.outputs?.['plan-json'] ?? '', 'plan-sha256': merge.outputs?.['plan-sha256'] ?? '', shard }));
  return { merge, applies };
}

/** An emulator state in which team/gamma's answer carries no `metadata` field, while team/acme shows its own. */
async function gammaWithoutMetadata(): Promise<EmulatorData> {
  const scratch = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
  try {
    for (const [scope, domains] of [['acme', ['acme.com']], ['gamma', ['gamma.com']]] as const) {
      const response = await fetch(`${scratch.url}/api/v1/invitations/autojoin`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ scope, scopeType: 'team', componentId: 'c1', domains }) });
      expect(response.status).toBe(200);
    }
    const data = scratch.data();
    const invitation = data.scopes['team/gamma']?.autojoin?.invitation as { metadata?: unknown } | undefined;
    if (!invitation) throw new Error('no team/gamma');
    delete invitation.metadata;
    return data;
  } finally {
    await scratch.close();
  }
}

const team = (scope: string, domains: string[], extra = ''): string => `scope: ${scope}\nscopeType: team\ncomponentId: c1\n${extra}domains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

/** Two estates set up alike, one for each door. */
async function twins(files: Record<string, string>, setup: (r: Repo) => Promise<void> = () => Promise.resolve(), data?: () => Promise<EmulatorData>): Promise<{ cli: Repo; action: Repo }> {
  const [a, b] = await Promise.all([openRepo(files, data ? { data: await data() } : {}), openRepo(files, data ? { data: await data() } : {})]);
  await setup(a);
  await setup(b);
  return { cli: a, action: b };
}

/** The sha256 `plan --out` printed. */
function digestOf(text: string): string {
  const match = /sha256 ([0-9a-f]{64})/u.exec(text);
  if (!match?.[1]) throw new Error(`no digest in: ${text}`);
  return match[1];
}

describe('one verdict, both front ends', () => {
  it('plan, then apply: the same exit codes and the same writes', async () => {
    const r = await twins({ 'acme.autojoin.yaml': team('acme', ['acme.com', 'b.example']) });
    const plans = [await cli(r.cli.dir, r.cli.emulator, ['plan', '--detailed-exitcode', '.']), await action(r.action.dir, r.action.emulator, { command: 'plan', 'detailed-exitcode': 'true' })];
    expect(plans.map((answer) => answer.code)).toEqual([2, 2]);
    const applies = [await cli(r.cli.dir, r.cli.emulator, ['apply', '--yes', '.']), await action(r.action.dir, r.action.emulator, { command: 'apply' })];
    expect(applies.map((answer) => answer.code)).toEqual([0, 0]);
    expect((await r.cli.live('acme')).domains).toEqual(['acme.com', 'b.example']);
    expect((await r.action.live('acme')).domains).toEqual(['acme.com', 'b.example']);
  });

  it('apply of a saved plan with no changes whose scope changed outside since: stale, exit 4, in both', async () => {
    // The old CLI said "No changes" (exit 0) here: it never checked a saved plan without changes against the service.
    const setup = async (r: Repo): Promise<void> => {
      expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    };
    const r = await twins({ 'acme.autojoin.yaml': team('acme', ['acme.com']) }, setup);
    // In-process CLI runs are serial (one working directory a process).
    const saved = [await r.cli.run(DAY, 'plan', '--out', 'plan.json', '.'), await r.action.run(DAY, 'plan', '--out', 'plan.json', '.')];
    for (const one of saved) expect(one.stdout).toContain('No changes');
    await Promise.all([r.cli, r.action].map((one) => one.admin('acme', ['acme.com', 'outside.example'])));
    const answers = [
      await cli(r.cli.dir, r.cli.emulator, ['apply', '--plan', 'plan.json', '--plan-sha256', digestOf(saved[0]?.stderr ?? ''), '--yes']),
      await action(r.action.dir, r.action.emulator, { command: 'apply', 'plan-file': 'plan.json', 'plan-sha256': digestOf(saved[1]?.stderr ?? '') }),
    ];
    expect(answers.map((answer) => answer.code)).toEqual([4, 4]);
    for (const answer of answers) expect(answer.text).toMatch(/the saved plan is stale: the live state of 1 scope\(s\) changed since it was made \(team\/acme\)/u);
  });

  it('the CLI\'s --format json gives a refusal row for a stale saved plan, as the action\'s job summary does', async () => {
    const r = await openRepo({ 'acme.autojoin.yaml': team('acme', ['acme.com']) });
    const saved = await r.run(DAY, 'plan', '--out', 'plan.json', '.');
    await r.admin('acme', ['outside.example']);
    const answer = await r.run(DAY, 'apply', '--plan', 'plan.json', '--plan-sha256', digestOf(saved.stderr), '--yes', '--format', 'json');
    expect(answer.code).toBe(4);
    const document = JSON.parse(answer.stdout) as { outcome: string; refusals?: { limit: string; scopes: string[]; count: number }[] };
    expect(document.outcome).toBe('stale');
    expect(document.refusals).toEqual([expect.objectContaining({ limit: 'stale', scopes: ['team/acme'], count: 1 })]);
  });

  it('refused by a safety limit: exit 3 in both, the same words, nothing written', async () => {
    const setup = async (r: Repo): Promise<void> => {
      expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
      await r.write('acme.autojoin.yaml', team('acme', ['a.example']));
      r.commit();
    };
    const r = await twins({ 'autojoin-sync.yaml': 'safety:\n  maxRemovals: 2\n', 'acme.autojoin.yaml': team('acme', ['a.example', 'b.example', 'c.example', 'd.example']) }, setup);
    const plans = [await cli(r.cli.dir, r.cli.emulator, ['plan', '.']), await action(r.action.dir, r.action.emulator, { command: 'plan' })];
    expect(plans.map((answer) => answer.code)).toEqual([0, 2]);
    const answers = [await cli(r.cli.dir, r.cli.emulator, ['apply', '--yes', '.']), await action(r.action.dir, r.action.emulator, { command: 'apply' })];
    expect(answers.map((answer) => answer.code)).toEqual([3, 3]);
    // plan's cautions are apply's refusals, in the same words (each front end names its own setting).
    for (const [plan, apply] of [[plans[0], answers[0]], [plans[1], answers[1]]] as const) {
      expect(plan?.verdict).toHaveLength(1);
      expect(apply?.text).toContain((plan?.verdict[0] ?? '').split(';')[0]);
    }
    expect((await r.cli.live('acme')).domains).toHaveLength(4);
    expect((await r.action.live('acme')).domains).toHaveLength(4);
  });

  it.each([
    ['a public suffix', 'co.uk', 'public-suffix'],
    ['a domain an error-level rule denies', 'x.agency.example', 'rule-deny'],
  ])('under drift: keep, a write that fails the write checks (%s) is a caution of plan and a refusal of apply, in both', async (_name, outside, check) => {
    const setup = async (r: Repo): Promise<void> => {
      expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
      await r.admin('acme', ['acme.com', outside]);
      await r.write('acme.autojoin.yaml', team('acme', ['acme.com', 'new.example']));
      r.commit();
    };
    const project = 'drift: keep\nrules:\n  - name: no agencies\n    deny: ["*.agency.example"]\n';
    const r = await twins({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': team('acme', ['acme.com']) }, setup);
    // The old plan showed `+ new.example` and no caution: reviewers approved a plan apply refuses.
    const plans = [await cli(r.cli.dir, r.cli.emulator, ['plan', '.']), await action(r.action.dir, r.action.emulator, { command: 'plan' })];
    for (const plan of plans) {
      expect(plan.verdict).toHaveLength(1);
      expect(plan.verdict[0]).toContain(`(${check})`);
      expect(plan.verdict[0]).toContain('team/acme: ');
    }
    expect(plans[0]?.verdict).toEqual(plans[1]?.verdict);
    const markdown = await cli(r.cli.dir, r.cli.emulator, ['plan', '--format', 'markdown', '.']);
    expect(markdown.text).toContain('**apply would refuse this plan** (exit code 1)');
    expect(plans[1]?.text).toContain('**apply would refuse this plan** (exit code 1)');
    const answers = [await cli(r.cli.dir, r.cli.emulator, ['apply', '--yes', '.']), await action(r.action.dir, r.action.emulator, { command: 'apply' })];
    expect(answers.map((answer) => answer.code)).toEqual([1, 1]);
    for (const answer of answers) expect(answer.text).toContain(`(${check})`);
    expect((await r.cli.live('acme')).domains).toEqual(['acme.com', outside].sort());
    expect((await r.action.live('acme')).domains).toEqual(['acme.com', outside].sort());
  });

  it('refused by ownership: exit 1 in both, naming the owner and the setting, nothing written', async () => {
    const setup = async (r: Repo): Promise<void> => {
      await r.admin('acme', ['acme.com'], { 'autojoin-sync.owner': 'platform' });
    };
    const r = await twins({ 'acme.autojoin.yaml': team('acme', ['acme.com', 'b.example']) }, setup);
    const answers = [await cli(r.cli.dir, r.cli.emulator, ['apply', '--yes', '.']), await action(r.action.dir, r.action.emulator, { command: 'apply' })];
    expect(answers.map((answer) => answer.code)).toEqual([1, 1]);
    for (const answer of answers) expect(answer.text).toContain('team/acme (owner "platform"): managed by another owner');
    expect((await r.cli.live('acme')).domains).toEqual(['acme.com']);
    expect((await r.action.live('acme')).domains).toEqual(['acme.com']);
  });

  it('apply --only-expired in a shallow clone: never prunes, so both remove the expired entry (exit 0)', async () => {
    // The old action stopped on the pruning history check (exit 1): only the CLI turned pruning off.
    const expiring = team('acme', ['acme.com', '{ domain: old.example, expires: 2026-02-01, reason: trial }']);
    const answers: Answer[] = [];
    const lives = [];
    for (const door of ['cli', 'action'] as const) {
      const origin = await openRepo({ 'acme.autojoin.yaml': expiring });
      expect((await origin.run('2026-01-15', 'apply', '--yes', '.')).code).toBe(0);
      const clone = path.join(temp, `clone-${door}`);
      execFileSync('git', ['clone', '-q', '--depth', '1', `file://${origin.dir}`, clone]);
      answers.push(door === 'cli' ? await cli(clone, origin.emulator, ['apply', '--yes', '--only-expired', '.']) : await action(clone, origin.emulator, { command: 'apply', 'only-expired': 'true' }));
      lives.push(await origin.live('acme'));
    }
    expect(answers.map((answer) => answer.code)).toEqual([0, 0]);
    expect(lives[0]?.domains).toEqual(['acme.com']);
    expect(lives[1]?.domains).toEqual(['acme.com']);
  });

  it('every hint works as printed: a shard part names merge-plans; a plan made outside the repository names -C', async () => {
    const r = await openRepo({ 'acme.autojoin.yaml': team('acme', ['acme.com']), 'beta.autojoin.yaml': team('beta', ['beta.com']) });
    const part = await r.run(DAY, 'plan', '--shard', '1/2', '--out', 'part-1.json', '.');
    expect(part.code).toBe(0);
    expect(part.stderr).toContain('autojoin-sync merge-plans part-1.json');
    expect(part.stderr).not.toContain('pin it');
    // From outside the repository, with its absolute path: the pin names -C and the plan file absolutely.
    const out = path.join(temp, 'plan.json');
    const planned = await cli(temp, r.emulator, ['plan', r.dir, '--out', out]);
    expect(planned.code).toBe(0);
    const hint = /\(pin it: autojoin-sync (.*)\)/u.exec(planned.text)?.[1] ?? '';
    expect(hint).toContain(`-C ${r.dir} apply --plan ${out} --plan-sha256 `);
    const applied = await cli(temp, r.emulator, [...hint.split(' '), '--yes']);
    expect(applied.code, applied.text).toBe(0);
    expect((await r.live('acme')).domains).toEqual(['acme.com']);
  });

  it('the after-run steps see one outcome from both front ends: plan, a refused apply, a written apply', async () => {
    const seen: { door: string; outcomes: unknown[] } = { door: '', outcomes: [] };
    const byDoor: Record<string, unknown[]> = {};
    const remove = addAfterRunHook({
      name: 'recorder',
      afterPlan: (outcome) => void seen.outcomes.push({ command: outcome.command, exitCode: outcome.exitCode, checks: outcome.verdict.refusals.map((refusal) => refusal.check) }),
      afterApply: (outcome) =>
        void seen.outcomes.push({ command: outcome.command, exitCode: outcome.exitCode, checks: outcome.verdict.refusals.map((refusal) => refusal.check), written: outcome.report?.applied.map((scope) => scope.key) ?? null }),
    });
    try {
      const setup = async (r: Repo): Promise<void> => {
        expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
        await r.write('acme.autojoin.yaml', team('acme', ['a.example']));
        r.commit();
      };
      const r = await twins({ 'autojoin-sync.yaml': 'safety:\n  maxRemovals: 2\n', 'acme.autojoin.yaml': team('acme', ['a.example', 'b.example', 'c.example', 'd.example']) }, setup);
      for (const door of ['cli', 'action'] as const) {
        seen.outcomes = [];
        const repo = r[door];
        const runs = door === 'cli'
          ? [['plan', '--detailed-exitcode', '.'], ['apply', '--yes', '.'], ['apply', '--yes', '--max-removals', '3', '.']].map((args) => () => cli(repo.dir, repo.emulator, args))
          : ([{ command: 'plan' }, { command: 'apply' }, { command: 'apply', 'max-removals': '3' }] as Record<string, string>[]).map((inputs) => () => action(repo.dir, repo.emulator, inputs));
        for (const one of runs) await one();
        byDoor[door] = seen.outcomes;
      }
    } finally {
      remove();
    }
    expect(byDoor.cli).toEqual([
      { command: 'plan', exitCode: 2, checks: ['max-removals'] },
      { command: 'apply', exitCode: 3, checks: ['max-removals'], written: null },
      { command: 'apply', exitCode: 0, checks: [], written: ['team/acme'] },
    ]);
    expect(byDoor.action).toEqual(byDoor.cli);
  });

  it('apply --only-expired writes the componentId as it is live: a component merged but not applied waits for its reviewed apply, in both', async () => {
    const expiring = (component: string): string => team('acme', ['acme.com', '{ domain: old.example, expires: 2026-02-01, reason: trial }']).replace('componentId: c1', `componentId: ${component}`);
    const components: unknown[] = [];
    for (const door of ['cli', 'action'] as const) {
      const r = await openRepo({ 'acme.autojoin.yaml': expiring('c1') });
      expect((await r.run('2026-01-15', 'apply', '--yes', '.')).code).toBe(0);
      await r.write('acme.autojoin.yaml', expiring('c2'));
      r.commit('a new component, merged, waiting for its approval');
      const answer = door === 'cli' ? await cli(r.dir, r.emulator, ['apply', '--yes', '--only-expired', '.']) : await action(r.dir, r.emulator, { command: 'apply', 'only-expired': 'true' });
      expect(answer.code, answer.text).toBe(0);
      expect((await r.live('acme')).domains).toEqual(['acme.com']);
      components.push(r.emulator.data().scopes['team/acme']?.componentId);
    }
    expect(components).toEqual(['c1', 'c1']);
  });
  describe('merged shards against one job (team/gamma is in shard 1/2, team/acme in 2/2)', () => {
    it('a scope answering without metadata while another shows its own: refused by the merged plan as by the unsharded plan, nothing written, in both', async () => {
      // The old merge kept no refusal: the part whose scopes all lack metadata only noted it, and apply --shard 1/2 wrote team/gamma.
      const files = { 'acme.autojoin.yaml': team('acme', ['acme.com']), 'gamma.autojoin.yaml': team('gamma', ['gamma.com', 'new.example']) };
      const r = await twins(files, undefined, gammaWithoutMetadata);
      const one = [await cli(r.cli.dir, r.cli.emulator, ['apply', '--yes', '.']), await action(r.action.dir, r.action.emulator, { command: 'apply' })];
      expect(one.map((answer) => answer.code)).toEqual([1, 1]);
      for (const answer of one) expect(answer.text).toContain('team/gamma: the service\'s answer carries no metadata field');
      const flows = [await sharded('cli', r.cli), await sharded('action', r.action)];
      expect(flows.map((flow) => flow.merge.code)).toEqual([1, 1]);
      for (const flow of flows) expect(flow.merge.text).toContain('team/gamma: the service\'s answer carries no metadata field');
      for (const repo of [r.cli, r.action]) expect((await repo.live('gamma')).domains).toEqual(['gamma.com']);
    });

    it('under drift: keep, maxScopesPerDomain over a live-only domain counted over the union: the merged plan cautions and apply --shard refuses, as the unsharded apply does, in both', async () => {
      // The old flow counted per shard: the unsharded apply refused, the sharded one wrote the violation.
      const setup = async (r: Repo): Promise<void> => {
        expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
        await r.admin('acme', ['acme.com', 'shared.example']);
        await r.admin('gamma', ['gamma.com', 'shared.example']);
        await r.write('gamma.autojoin.yaml', team('gamma', ['gamma.com', 'new.example']));
        r.commit();
      };
      const project = 'drift: keep\nrules:\n  - name: one scope a domain\n    maxScopesPerDomain: 1\n';
      const r = await twins({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': team('acme', ['acme.com']), 'gamma.autojoin.yaml': team('gamma', ['gamma.com']) }, setup);
      const one = [await cli(r.cli.dir, r.cli.emulator, ['apply', '--yes', '.']), await action(r.action.dir, r.action.emulator, { command: 'apply' })];
      expect(one.map((answer) => answer.code)).toEqual([1, 1]);
      for (const answer of one) expect(answer.text).toContain('(rule-max-scopes)');
      const flows = [await sharded('cli', r.cli), await sharded('action', r.action)];
      for (const flow of flows) {
        expect(flow.merge.verdict.join('\n')).toContain('(rule-max-scopes)');
        expect(flow.applies.map((answer) => answer.code)).toEqual([1, 1]);
        for (const answer of flow.applies) expect(answer.text).toContain('(rule-max-scopes)');
      }
      for (const repo of [r.cli, r.action]) expect((await repo.live('gamma')).domains).toEqual(['gamma.com', 'shared.example']);
    });

    it('a merged plan runs its after-plan steps once, as merge-plans, with the verdict decided over its parts, in both', async () => {
      // The action's merge step ran them twice: once in the command, again as a plan of the action's own context.
      const r = await twins({ 'autojoin-sync.yaml': 'safety:\n  maxRemovals: 0\n', 'acme.autojoin.yaml': team('acme', ['acme.com']), 'gamma.autojoin.yaml': team('gamma', ['gamma.com']) });
      const outcomes: Record<string, unknown[]> = { cli: [], action: [] };
      let door: 'cli' | 'action' = 'cli';
      const remove = addAfterRunHook({ name: 'recorder', afterPlan: (outcome) => void outcomes[door]?.push({ command: outcome.command, exitCode: outcome.exitCode, checks: outcome.verdict.refusals.map((refusal) => refusal.check) }) });
      try {
        for (const one of ['cli', 'action'] as const) {
          door = one;
          const flow = await sharded(one, r[one]);
          expect(flow.merge.code).toBeLessThan(3);
        }
      } finally {
        remove();
      }
      const merges = (list: unknown[] | undefined): unknown[] => (list ?? []).filter((outcome) => (outcome as { command: string }).command === 'merge-plans');
      expect(merges(outcomes.cli)).toEqual([{ command: 'merge-plans', exitCode: 2, checks: [] }]);
      expect(merges(outcomes.action)).toEqual(merges(outcomes.cli));
      expect(outcomes.action).toHaveLength(outcomes.cli?.length ?? -1);
    });
  });
  describe('--changed-since against the full plan (the CLI\'s: the action plans in full)', () => {
    const project = 'rules:\n  - name: one scope a domain\n    maxScopesPerDomain: 1\n';

    it('maxScopesPerDomain among the files counts every policy file, not only the changed ones: the same error as the full plan', async () => {
      // The old --changed-since counted only the changed file: the plan was clean, the full plan refused.
      const r = await openRepo({ 'autojoin-sync.yaml': project, 'acme.autojoin.yaml': team('acme', ['acme.com']), 'gamma.autojoin.yaml': team('gamma', ['gamma.com']) });
      const base = r.commit('base');
      await r.write('gamma.autojoin.yaml', team('gamma', ['gamma.com', 'acme.com']));
      r.commit('gamma takes acme.com too');
      const full = await cli(r.dir, r.emulator, ['plan', '.']);
      const changed = await cli(r.dir, r.emulator, ['plan', '--changed-since', base, '.']);
      expect([full.code, changed.code]).toEqual([1, 1]);
      for (const answer of [full, changed]) {
        expect(answer.text).toContain('acme.com appears in 2 scopes, more than 1 (team/acme, team/gamma)');
        expect(answer.text).toContain('acme.autojoin.yaml');
      }
    });

    it.each([
      ['held by an unchanged file\'s scope at plan time: the plan cautions, apply --plan refuses', true],
      ['added to an unchanged file\'s scope after the plan: apply --plan reads it again, recounts and refuses', false],
    ])('under drift: keep, a live-only domain %s', async (_name, before) => {
      // The old --changed-since counted only the scopes of the changed files: clean, and apply --plan wrote the violation.
      const r = await openRepo({ 'autojoin-sync.yaml': `drift: keep\n${project}`, 'acme.autojoin.yaml': team('acme', ['acme.com']), 'gamma.autojoin.yaml': team('gamma', ['gamma.com']) });
      expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
      if (before) await r.admin('acme', ['acme.com', 'shared.example']);
      await r.admin('gamma', ['gamma.com', 'shared.example']);
      const base = r.commit('applied');
      await r.write('gamma.autojoin.yaml', team('gamma', ['gamma.com', 'new.example']));
      r.commit('gamma adds new.example');
      const full = await cli(r.dir, r.emulator, ['plan', '.']);
      const changed = await cli(r.dir, r.emulator, ['plan', '--changed-since', base, '--out', 'plan.json', '.']);
      expect(changed.code).toBe(full.code);
      expect(changed.verdict).toEqual(full.verdict);
      expect(changed.verdict.join('\n').includes('(rule-max-scopes)')).toBe(before);
      if (!before) await r.admin('acme', ['acme.com', 'shared.example']);
      const applied = await cli(r.dir, r.emulator, ['apply', '--plan', 'plan.json', '--plan-sha256', digestOf(changed.text), '--yes']);
      expect(applied.code, applied.text).toBe(1);
      expect(applied.text).toContain('shared.example would appear in 2 scopes, more than 1 (team/acme, team/gamma)');
      expect((await r.live('gamma')).domains).toEqual(['gamma.com', 'shared.example']);
    });
  });
  describe('apply --only-expired refuses by name what it cannot write as it is live, in both (never a green "No changes" while an expired grant stays live)', () => {
    const expiring = (domains: string[]): string => team('acme', [...domains, '{ domain: old.example, expires: 2026-02-01, reason: trial }']);

    it('a scope whose marker a widget admin\'s save removed', async () => {
      // The old run skipped it: "No changes", exit 0, old.example still live.
      const setup = async (r: Repo): Promise<void> => {
        expect((await r.run('2026-01-15', 'apply', '--yes', '.')).code).toBe(0);
        await r.admin('acme', ['acme.com', 'old.example'], { note: 'saved in the widget' });
      };
      const r = await twins({ 'acme.autojoin.yaml': expiring(['acme.com']), 'beta.autojoin.yaml': team('beta', ['beta.com']) }, setup);
      const answers = [await cli(r.cli.dir, r.cli.emulator, ['apply', '--yes', '--only-expired', '.']), await action(r.action.dir, r.action.emulator, { command: 'apply', 'only-expired': 'true' })];
      expect(answers.map((answer) => answer.code)).toEqual([1, 1]);
      for (const answer of answers) {
        expect(answer.text).toContain('team/acme: its ownership marker was removed outside this repository');
        expect(answer.text).not.toContain('No changes');
      }
      for (const repo of [r.cli, r.action]) expect((await repo.live('acme')).domains).toEqual(['acme.com', 'old.example']);
    });

    it('a scope without a marker whose policy at HEAD declares more than the write leaves: not marked with HEAD', async () => {
      // The old run removed old.example and marked the scope with HEAD, whose policy also declares new.example (never written).
      const setup = async (r: Repo): Promise<void> => {
        await r.admin('acme', ['acme.com', 'old.example']);
      };
      const r = await twins({ 'acme.autojoin.yaml': expiring(['acme.com', 'new.example']) }, setup);
      const answers = [await cli(r.cli.dir, r.cli.emulator, ['apply', '--yes', '--only-expired', '.']), await action(r.action.dir, r.action.emulator, { command: 'apply', 'only-expired': 'true' })];
      expect(answers.map((answer) => answer.code)).toEqual([1, 1]);
      for (const answer of answers) expect(answer.text).toContain('team/acme: it carries no ownership marker, and its policy at HEAD without the expired entries is not what this write would leave');
      for (const repo of [r.cli, r.action]) {
        expect((await repo.live('acme')).domains).toEqual(['acme.com', 'old.example']);
        expect((await repo.live('acme')).metadata).toBeNull();
      }
    });
  });
});
