/**
 * The action as the runner runs it: `node dist/action.js` with INPUT_* variables, GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY and an event payload, against the emulator and a fake GitHub REST API.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requires } from '../support/requires.js';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { startFakeGitHub, type FakeGitHub } from './support/fake-github.js';
import { pullRequestPayload, pushPayload, runAction, type ActionRun, type ActionRunOptions } from './support/run-action.js';
import { git as gitIn } from '../support/git.js';
import { OUTPUT_NAMES } from '../../src/action/outputs.js';

const API_KEY = 'ak-action-test-NEVER-SHOWN-5c1d9e';
const GITHUB_TOKEN = 'ghs_fakeTokenForTests0123456789';
// path: policies is part of the marker, so jobs over other paths keep their own comments.
const MARKER = '<!-- autojoin-sync:plan path=policies -->';
const PR = 7;

const ENG = `scope: acme-eng
scopeType: team
scopeName: Acme Engineering
componentId: cmp_8f2c
domains:
  - acme.com
  - acme.co.uk
`;
const SALES = `scope: acme-sales
scopeType: team
componentId: cmp_8f2c
domains:
  - acme-sales.com
`;
// gmail.com sits at line 6, column 5.
const WEBMAIL = `scope: acme-bad
scopeType: team
componentId: cmp_8f2c
domains:
  - acme.com
  - gmail.com
`;

let emulator: Emulator;
let github: FakeGitHub;
let workspace: string;
const runs: ActionRun[] = [];

beforeEach(async () => {
  emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: API_KEY });
  github = await startFakeGitHub('acme', 'policies', GITHUB_TOKEN);
  workspace = await mkdtemp(join(tmpdir(), 'autojoin-action-ws-'));
  await writeFiles({ 'policies/eng.autojoin.yaml': ENG, 'policies/sales.autojoin.yaml': SALES });
});

afterEach(async () => {
  const done = runs.splice(0);
  await Promise.all([emulator.close(), github.close(), rm(workspace, { recursive: true, force: true })]);
  assertNoSecret(done);
});

afterAll(() => undefined);

async function writeFiles(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
}

async function action(inputs: Record<string, string>, overrides: Partial<ActionRunOptions> = {}): Promise<ActionRun> {
  const run = await runAction({
    inputs: { 'base-url': emulator.url, 'api-key': API_KEY, 'github-token': GITHUB_TOKEN, path: 'policies', ...inputs },
    workspace,
    eventName: 'pull_request',
    payload: pullRequestPayload(PR),
    apiUrl: github.url,
    ...overrides,
  });
  runs.push(run);
  return run;
}

/** The key may only reach the runner inside its own `::add-mask::` command. */
function assertNoSecret(done: readonly ActionRun[]): void {
  for (const run of done) {
    const stdout = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n');
    for (const [where, text] of Object.entries({ stdout, stderr: run.stderr, output: run.outputFile, summary: run.summary, plan: run.planJson ?? '' })) {
      expect(text.includes(API_KEY), `api key in ${where}`).toBe(false);
      expect(text.includes(GITHUB_TOKEN), `token in ${where}`).toBe(false);
    }
    expect(run.stdout).toContain(`::add-mask::${API_KEY}`);
  }
  for (const request of github.requests) expect(`${request.url}\n${request.body}`.includes(API_KEY)).toBe(false);
}

function markerComments(): { id: number; body: string }[] {
  return github.comments.filter((comment) => comment.body.includes(MARKER));
}

describe('plan in a pull request', () => {
  it('creates one sticky comment, then updates it in place', async () => {
    github.seed(PR, 130); // the marker search must walk past the first page of 100
    const first = await action({ command: 'plan' });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ 'has-changes': 'true', 'exit-code': '2', summary: '2 to create, 0 to update, 0 to clear, 0 unchanged.' });
    expect(markerComments()).toHaveLength(1);
    const [comment] = markerComments();
    expect(comment?.body).toMatch(/^### autojoin-sync plan: policies\n\n\*\*2 to create/);
    expect(comment?.body).toContain('team/acme-eng');
    expect(comment?.body).toContain('+ acme.co.uk');
    expect(comment?.body).toContain('https://github.com/acme/policies/actions/runs/4242');
    expect(github.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(github.requests.every((r) => r.authorization === `Bearer ${GITHUB_TOKEN}`)).toBe(true);

    await writeFiles({ 'policies/sales.autojoin.yaml': SALES.replace('acme-sales.com', 'acme-sales.de') });
    const second = await action({ command: 'plan' });
    expect(second.code).toBe(0);
    expect(markerComments()).toHaveLength(1);
    expect(markerComments()[0]?.id).toBe(comment?.id);
    expect(markerComments()[0]?.body).toContain('+ acme-sales.de');
    expect(github.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(github.requests.filter((r) => r.method === 'PATCH').map((r) => r.url)).toEqual([`/repos/acme/policies/issues/comments/${comment?.id}`]);
    expect(github.requests.filter((r) => r.method === 'GET').map((r) => r.url)).toContain(`/repos/acme/policies/issues/${PR}/comments?per_page=100&page=2`);
  });

  it('puts the full plan in the job summary and the plan JSON under RUNNER_TEMP', async () => {
    const run = await action({ command: 'plan' });
    expect(run.summary).toContain('### autojoin-sync plan: policies');
    expect(run.summary).toContain('team/acme-sales');
    expect(run.outputs['plan-json']).toMatch(/autojoin-sync\/plan-[\w.-]+\.json$/);
    const plan = JSON.parse(run.planJson ?? '{}') as { target: string; changes: { key: string; after: string[] }[] };
    expect(plan.target).toBe(emulator.url);
    expect(plan.changes.map((change) => [change.key, change.after])).toEqual([
      ['team/acme-eng', ['acme.co.uk', 'acme.com']],
      ['team/acme-sales', ['acme-sales.com']],
    ]);
    expect(emulator.requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('cuts a 60,000+ character plan under 60,000 characters and says so', async () => {
    const docs = Array.from({ length: 2000 }, (_, i) => `scope: team-${String(i).padStart(4, '0')}\nscopeType: team\ncomponentId: cmp_8f2c\ndomains:\n  - acme-${i}.com\n  - acme-${i}.co.uk\n`);
    const big = 'scope: zz-big\nscopeType: team\ncomponentId: cmp_8f2c\ndomains: [big-1.com, big-2.com, big-3.com, big-4.com, big-5.com]\n';
    await writeFiles({ 'policies/many.autojoin.yaml': docs.join('---\n'), 'policies/zz.autojoin.yaml': big });
    const run = await action({ command: 'plan', 'github-token': GITHUB_TOKEN });
    expect(run.code, run.stdout).toBe(0);
    const body = markerComments()[0]?.body ?? '';
    expect(body.length).toBeGreaterThan(50_000);
    expect(body.length).toBeLessThan(60_000);
    expect(body).toMatch(/^### autojoin-sync plan: policies\n\n\*\*2003 to create/);
    expect(body).toMatch(/_\d+ changed scopes omitted here to stay under \d+ characters; see the job summary/);
    expect(body.trimEnd().endsWith(MARKER)).toBe(true);
    // The largest change is kept though it sorts last; the job summary has every scope.
    expect(body).toContain('team/zz-big');
    expect(run.summary.length).toBeGreaterThan(60_000);
    expect(run.summary).toContain('team/team-1999');
  }, 60_000);

  it('warns instead of failing when the token may not comment (403, a fork)', async () => {
    github.writeStatus = 403;
    const run = await action({ command: 'plan' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^::warning::cannot comment on pull request #7 \(\[POST\] \/repos\/acme\/policies\/issues\/7\/comments: 403 Resource not accessible by integration\)/m);
    expect(run.stdout).not.toContain('::error');
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.summary).toContain('team/acme-eng');
    expect(github.comments).toHaveLength(0);
  });

  it('replaces the comment with the error when no plan can be made', async () => {
    await action({ command: 'plan' });
    const run = await action({ command: 'plan', 'api-key': `${API_KEY}-wrong` });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error::reading team\/acme-eng failed: \[GET\] \/api\/v1\/invitations\/by-scope\/team\/acme-eng\/autojoin: 401 /m);
    expect(markerComments()).toHaveLength(1);
    expect(markerComments()[0]?.body).toMatch(/^### autojoin-sync plan: policies\n\n:x: \*\*No plan could be made:\*\*\n\n```text\nreading team\/acme-eng failed: \[GET\] \/api\/v1\/invitations\/by-scope\/team\/acme-eng\/autojoin: 401/);
    // The comment's footer points to the job summary, which says the same.
    expect(run.summary).toMatch(/^### autojoin-sync plan: policies\n\n:x: \*\*No plan could be made:\*\*\n\n```text\nreading team\/acme-eng failed: /);
  });

  it('does not comment with comment: false', async () => {
    const run = await action({ command: 'plan', comment: 'false' });
    expect(run.code).toBe(0);
    expect(github.requests).toHaveLength(0);
  });

  it('annotates invalid files at file, line and column and fails the step', async () => {
    await writeFiles({ 'policies/bad.autojoin.yaml': WEBMAIL });
    const run = await action({ command: 'plan' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error title=autojoin-sync%3A webmail-domain,file=policies\/bad\.autojoin\.yaml,line=6,col=5::gmail\.com is a webmail domain/m);
    expect(run.stdout).toMatch(/^::error::1 error in the policy files; nothing was planned$/m);
    expect(run.outputs).toMatchObject({ 'exit-code': '1', 'has-changes': 'false', 'plan-json': '' });
    expect(markerComments()[0]?.body).toContain('policies/bad.autojoin.yaml:6:5: error:');
    // Live state of the valid files may be read while the files load; nothing is written.
    expect(emulator.requests.filter((request) => request.method !== 'GET')).toHaveLength(0);
  });

  it('validate annotates without any network call or credential', async () => {
    await writeFiles({ 'policies/bad.autojoin.yaml': WEBMAIL });
    const run = await action({ command: 'validate', 'base-url': '', 'api-key': '' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error title=autojoin-sync%3A webmail-domain,file=policies\/bad\.autojoin\.yaml,line=6,col=5::/m);
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.outputs.summary).toMatch(/^2 policies; 1 error, \d+ warnings? in 3 files$/);
    expect(emulator.requests).toHaveLength(0);
    expect(github.requests).toHaveLength(0);
    runs.pop(); // no key was given, so none is masked
  });

  it('writes every output in the GITHUB_OUTPUT multiline form', async () => {
    const run = await action({ command: 'plan' });
    const names = [...run.outputFile.matchAll(/^([\w-]+)<<ghadelimiter_[0-9a-f-]+$/gm)].map((match) => match[1]);
    expect(names.sort()).toEqual([...OUTPUT_NAMES].sort());
    expect(run.outputFile).not.toMatch(/^[\w-]+=/m);
  });
});

describe('drift and errors', () => {
  it('fails the step on drift with detailed-exitcode', async () => {
    const run = await action({ command: 'plan', comment: 'false', 'detailed-exitcode': 'true' }, { eventName: 'schedule', payload: { schedule: '0 3 * * *' } });
    expect(run.code).toBe(1);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.stdout).toMatch(/^::error::2 to create, 0 to update, 0 to clear, 0 unchanged\.$/m);
  });

  it('passes a drift check when nothing changed', async () => {
    await action({ command: 'apply' }, { eventName: 'push', payload: pushPayload('1'.repeat(40), '2'.repeat(40)) });
    const run = await action({ command: 'plan', 'detailed-exitcode': 'true' }, { eventName: 'schedule', payload: {} });
    expect(run.code).toBe(0);
    expect(run.outputs).toMatchObject({ 'exit-code': '0', 'has-changes': 'false' });
  });

  it('stops with a clear message in CI when no base URL is given', async () => {
    const run = await action({ command: 'plan', 'base-url': '' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error::AUTOJOIN_BASE_URL is not set: no Invitation Service to talk to, and nothing was written. Set AUTOJOIN_BASE_URL, or the action input base-url/m);
    expect(run.outputs['exit-code']).toBe('1');
  });

  it('rejects an unknown command', async () => {
    const run = await action({ command: 'destroy' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::input command: "destroy" is not one of validate, plan, apply');
  });
});

describe('runtime', () => {
  // scripts/with-node.sh sets this: the runner runs the action on Node 24, so these tests must too.
  it('runs the action under the expected Node major version', (context) => {
    requires(context, { present: process.env.AUTOJOIN_EXPECT_NODE_MAJOR !== undefined, reason: 'only under scripts/with-node.sh, which sets AUTOJOIN_EXPECT_NODE_MAJOR' });
    const spawned = execFileSync(process.execPath, ['-p', 'process.versions.node'], { encoding: 'utf8' });
    expect(spawned.split('.')[0]).toBe(process.env.AUTOJOIN_EXPECT_NODE_MAJOR);
  });
});

describe('apply on push', () => {
  it('applies a saved plan only with its sha256, and only the plan that was reviewed', async () => {
    const planned = await action({ command: 'plan', comment: 'false' });
    expect(planned.outputs['plan-sha256']).toMatch(/^[0-9a-f]{64}$/u);
    await writeFiles({ 'artifact/plan.json': planned.planJson ?? '' });
    const push = { eventName: 'push', payload: pushPayload('1'.repeat(40), '2'.repeat(40)) };
    const unpinned = await action({ command: 'apply', 'plan-file': 'artifact/plan.json' }, push);
    expect(unpinned.outputs['exit-code']).toBe('1');
    expect(unpinned.stdout).toContain('input plan-file needs plan-sha256');
    const edited = (planned.planJson ?? '').replace('"acme.com"', '"acme.com", "evil.example"');
    await writeFiles({ 'artifact/edited.json': edited });
    const tampered = await action({ command: 'apply', 'plan-file': 'artifact/edited.json', 'plan-sha256': planned.outputs['plan-sha256'] ?? '' }, push);
    expect(tampered.outputs['exit-code']).toBe('1');
    expect(tampered.stdout).toContain(`not the pinned ${planned.outputs['plan-sha256']}`);
    expect(emulator.data().scopes['team/acme-eng']).toBeUndefined();
    const run = await action({ command: 'apply', 'plan-file': 'artifact/plan.json', 'plan-sha256': planned.outputs['plan-sha256'] ?? '' }, push);
    expect(run.code, run.stdout).toBe(0);
    expect(emulator.data().scopes['team/acme-eng']?.autojoin?.domains.map((d) => d.domain).sort()).toEqual(['acme.co.uk', 'acme.com']);
  });

  it('applies, writes the report to the job summary and changes the service', async () => {
    const run = await action({ command: 'apply' }, { eventName: 'push', payload: pushPayload('1'.repeat(40), '2'.repeat(40)) });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ 'exit-code': '0', 'has-changes': 'true' });
    expect(run.summary).toMatch(/### autojoin-sync apply: policies\n\n\*\*Applied 2, failed 0, skipped 0\.\*\*/);
    expect(run.summary).toContain('### autojoin-sync plan: policies');
    const scopes = emulator.data().scopes;
    expect(scopes['team/acme-eng']?.autojoin?.domains.map((d) => d.domain).sort()).toEqual(['acme.co.uk', 'acme.com']);
    expect(scopes['team/acme-sales']?.autojoin?.invitation.deactivated).toBe(false);
    expect(github.requests).toHaveLength(0);
  });

  it('fails on a scope another owner marked, and takes it over with take-ownership (comma or newline separated)', async () => {
    const seeded = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
      body: JSON.stringify({ domains: ['acme.com'], scope: 'acme-eng', scopeType: 'team', componentId: 'cmp_8f2c', metadata: { 'autojoin-sync.owner': 'infra' } }),
    });
    expect(seeded.status).toBe(200);
    const refused = await action({ command: 'plan' });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('team/acme-eng (owner "infra")');
    expect(markerComments()[0]?.body).toContain('To take a scope over, run again with input take-ownership: team/acme-eng, or set');
    expect(refused.stdout).toContain('input take-ownership: team/acme-eng');
    expect(refused.stdout).not.toContain('--take-ownership');

    const planned = await action({ command: 'plan', 'take-ownership': 'org/other,\nteam/acme-eng' });
    expect(planned.code, planned.stdout).toBe(0);
    expect(markerComments()[0]?.body).toContain('owner: &#34;infra&#34; → &#34;default&#34; (takes the scope over from another owner: --take-ownership)');
    const push = { eventName: 'push', payload: pushPayload('1'.repeat(40), '2'.repeat(40)) };
    expect((await action({ command: 'apply' }, push)).code).toBe(1);
    const applied = await action({ command: 'apply', 'take-ownership': 'team/acme-eng' }, push);
    expect(applied.code, applied.stdout).toBe(0);
    expect(emulator.data().scopes['team/acme-eng']?.autojoin?.invitation.metadata).toMatchObject({ 'autojoin-sync.owner': 'default' });
    expect((await action({ command: 'plan', 'take-ownership': 'acme' })).stdout).toContain('input take-ownership: "acme": expected TYPE/ID');
  });

  it('clears the scope of a policy file the push deleted (prune-from: github.event.before)', async () => {
    const git = (...args: string[]): string => gitIn(workspace, ...args);
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'two scopes');
    const push = { eventName: 'push', payload: pushPayload('0'.repeat(40), git('rev-parse', 'HEAD')) };
    expect((await action({ command: 'apply', 'prune-from': '0'.repeat(40) }, push)).code).toBe(0);
    const before = git('rev-parse', 'HEAD');
    git('rm', '-q', 'policies/sales.autojoin.yaml');
    git('commit', '-q', '-m', 'retire sales');
    const run = await action({ command: 'apply', 'prune-from': before, 'allow-empty': 'true' }, push);
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.summary).toBe('0 to create, 0 to update, 1 to clear, 1 unchanged. Applied 1, failed 0, skipped 0.');
    expect(emulator.data().scopes['team/acme-sales']?.autojoin?.invitation.deactivated).toBe(true);
    expect(emulator.data().scopes['team/acme-eng']?.autojoin?.invitation.deactivated).toBe(false);
  });

  it('with prune, a pull request that deletes a policy file lists the clear in the sticky comment', async () => {
    const git = (...args: string[]): string => gitIn(workspace, ...args);
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'two scopes');
    expect((await action({ command: 'apply', prune: 'true' }, { eventName: 'push', payload: {} })).code).toBe(0);
    git('rm', '-q', 'policies/sales.autojoin.yaml');
    git('commit', '-q', '-m', 'Retire the sales team');
    const sha = git('rev-parse', '--short=12', 'HEAD');

    const run = await action({ command: 'plan', prune: 'true' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.summary).toBe('0 to create, 0 to update, 1 to clear, 1 unchanged.');
    const body = markerComments()[0]?.body ?? '';
    expect(body).toContain('<code>-</code> <b>team/acme-sales</b> — clear (deactivates autojoin): -1 (policy file deleted)');
    expect(body).toContain(`removed by ${sha} (`);
    expect(body).toContain('Retire the sales team');
    expect(body).toContain('- acme-sales.com');
    expect(body).not.toContain('--allow-empty');
    expect(JSON.parse(run.planJson ?? '{}')).toMatchObject({ changes: [{ key: 'team/acme-sales', kind: 'clear', reason: 'pruned', removedBy: { commit: sha } }] });
    expect(emulator.data().scopes['team/acme-sales']?.autojoin?.invitation.deactivated).toBe(false);
  });

  it('plan shows, but does not fail on, what apply would refuse; in a pull request, with what the reviewer can do', async () => {
    await action({ command: 'apply' }, { eventName: 'push', payload: {} });
    await writeFiles({ 'policies/eng.autojoin.yaml': ENG.replace('  - acme.co.uk\n', '') });
    const run = await action({ command: 'plan', 'max-removals': '0' });
    expect(run.code).toBe(0);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.stdout).toMatch(/^::warning title=autojoin-sync%3A unsafe plan::apply would refuse this plan: safety limit max-removals: 1 domain removed \(team\/acme-eng\), over the limit of 0 domains removed in one run\. To let it through: raise `safety\.maxRemovals`/m);
    expect(markerComments()[0]?.body).toMatch(/^> \[!CAUTION\]\n> \*\*apply would refuse this plan\*\* \(exit code 3\):\n> - safety limit max-removals: 1 domain removed/);
    expect(markerComments()[0]?.body).not.toContain('run again');
    expect(markerComments()[0]?.body).toContain('- acme.co.uk');
  });

  it('refuses a plan over max-removals with exit code 3 and writes nothing', async () => {
    await action({ command: 'apply' }, { eventName: 'push', payload: {} });
    const posts = emulator.requests.filter((r) => r.method === 'POST').length;
    await writeFiles({ 'policies/eng.autojoin.yaml': ENG.replace('  - acme.co.uk\n', '') });
    const run = await action({ command: 'apply', 'max-removals': '0' }, { eventName: 'push', payload: {} });
    expect(run.code).toBe(1);
    expect(run.outputs['exit-code']).toBe('3');
    expect(run.stdout).toMatch(/^::error::refused by a safety limit: plan removes 1 domains, more than the limit of 0/m);
    expect(emulator.requests.filter((r) => r.method === 'POST').length).toBe(posts);
  });

  it('still sets has-changes and plan-json when apply refuses the plan it made (prune over max-removals)', async () => {
    const git = (...args: string[]): string => gitIn(workspace, ...args);
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'two scopes');
    expect((await action({ command: 'apply' }, { eventName: 'push', payload: {} })).code).toBe(0);
    git('rm', '-q', 'policies/eng.autojoin.yaml');
    git('commit', '-q', '-m', 'retire engineering');
    const run = await action({ command: 'apply', prune: 'true', 'max-removals': '1' }, { eventName: 'push', payload: {} });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ 'exit-code': '3', 'has-changes': 'true' });
    expect(run.outputs['plan-json']).toMatch(/autojoin-sync\/plan-[\w.-]+\.json$/);
    expect(JSON.parse(run.planJson ?? '{}')).toMatchObject({ changes: [{ key: 'team/acme-eng', kind: 'clear', reason: 'pruned' }] });
  });

  it('sets has-changes to false and plan-json empty when the step fails before any plan', async () => {
    const run = await action({ command: 'apply', 'base-url': '' }, { eventName: 'push', payload: {} });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ 'exit-code': '1', 'has-changes': 'false', 'plan-json': '', 'plan-sha256': '' });
  });
});
