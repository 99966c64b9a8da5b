/**
 * Notifications from the CLI, in-process against the emulator over loopback and real receivers
 * on 127.0.0.1: each event in each format, the signature checked with the secret, the webhook
 * body checked against its JSON Schema, nothing secret in any output, `required` and the exit codes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import webhookSchema from '../../schemas/notify-webhook.schema.json' with { type: 'json' };
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { verifySignature } from '../../src/notify/sign.js';
import { commitAll } from '../support/git.js';
import { runInProcess } from '../support/in-process.js';
import { SECRET, startReceiver, type Answer, type Receiver } from './support.js';

const KEY = 'sk-notify-test-7a1c';
const validateWebhook = new Ajv2020({ strict: true, allErrors: true }).compile(webhookSchema);

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

interface Fixture {
  dir: string;
  emulator: Emulator;
  hook: Receiver;
  slack: Receiver;
  teams: Receiver;
  env: Record<string, string>;
  run(...args: string[]): ReturnType<typeof runInProcess>;
}

const NOTIFY = `notify:
  - to: webhook
    urlEnv: AUTOJOIN_NOTIFY_HOOK_URL
    secretEnv: AUTOJOIN_NOTIFY_HOOK_SECRET
  - to: slack
    urlEnv: AUTOJOIN_NOTIFY_SLACK_URL
  - to: teams
    urlEnv: AUTOJOIN_NOTIFY_TEAMS_URL
`;

const policy = (scope: string, domains: string[]): string => `scope: ${scope}\nscopeType: team\ncomponentId: c1\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

async function fixture(options: { project?: string; answers?: Partial<Record<'hook' | 'slack' | 'teams', Answer[]>>; files?: Record<string, string> } = {}): Promise<Fixture> {
  const dir = await mkdtemp(path.join(tmpdir(), 'notify-'));
  await writeFile(path.join(dir, 'autojoin-sync.yaml'), `owner: platform\n${options.project ?? NOTIFY}`);
  for (const [file, text] of Object.entries(options.files ?? { 'eng.autojoin.yaml': policy('eng', ['acme.com', 'acme.io']) })) await writeFile(path.join(dir, file), text);
  commitAll(dir);
  const emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
  const hook = await startReceiver(options.answers?.hook);
  const slack = await startReceiver(options.answers?.slack);
  const teams = await startReceiver(options.answers?.teams);
  open.push(() => emulator.close(), () => hook.close(), () => slack.close(), () => teams.close(), () => rm(dir, { recursive: true, force: true }));
  const env = {
    AUTOJOIN_BASE_URL: emulator.url,
    AUTOJOIN_API_KEY: KEY,
    AUTOJOIN_NOTIFY_HOOK_URL: hook.url,
    AUTOJOIN_NOTIFY_HOOK_SECRET: SECRET,
    AUTOJOIN_NOTIFY_SLACK_URL: slack.url,
    AUTOJOIN_NOTIFY_TEAMS_URL: teams.url,
    GITHUB_REPOSITORY: 'acme/policies',
  };
  return { dir, emulator, hook, slack, teams, env, run: (...args) => runInProcess(args, { cwd: dir, env }) };
}

/** Every secret of the fixture: none may show in any output. */
function secretsOf(f: Fixture): string[] {
  return [SECRET, f.hook.url, f.slack.url, f.teams.url, 'T0SECRET/B0SECRET/tokenXYZ123456', KEY];
}

function expectNoSecret(f: Fixture, ...texts: string[]): void {
  for (const text of texts) for (const secret of secretsOf(f)) expect(text).not.toContain(secret);
}

function webhookBody(received: Receiver): Record<string, unknown> {
  const [request] = received.received;
  if (!request) throw new Error('nothing received');
  const body = JSON.parse(request.body) as Record<string, unknown>;
  expect(validateWebhook(body), JSON.stringify(validateWebhook.errors)).toBe(true);
  return body;
}

describe('apply notifies', () => {
  it('applied: one signed webhook body, a Slack and a Teams message, after the report; secrets shown nowhere', async () => {
    const f = await fixture();
    const result = await f.run('apply', '--yes', '--verbose');
    expect(result.code, result.stderr).toBe(0);
    for (const receiver of [f.hook, f.slack, f.teams]) expect(receiver.received).toHaveLength(1);
    const request = f.hook.received[0];
    if (!request) throw new Error('no webhook request');
    expect(request.path).toBe('/hooks/T0SECRET/B0SECRET/tokenXYZ123456');
    const now = Math.floor(Date.now() / 1000);
    const check = { secret: SECRET, timestamp: request.headers['x-autojoin-timestamp'] as string, signature: request.headers['x-autojoin-signature'] as string, now };
    expect(verifySignature({ ...check, body: request.body })).toBe(true);
    expect(verifySignature({ ...check, body: request.body.replace('acme.com', 'evil.com') })).toBe(false);
    expect(verifySignature({ ...check, body: request.body, now: now + 3600 })).toBe(false);
    const body = webhookBody(f.hook);
    expect(body).toMatchObject({ version: 1, event: 'applied', command: 'apply', exitCode: 0, owner: 'platform', repository: 'acme/policies', service: new URL(f.emulator.url).host });
    expect(body.scopes).toEqual([{ key: 'team/eng', kind: 'create', origin: 'repository', outcome: 'applied', added: ['acme.com', 'acme.io'], removed: [], addedMore: 0, removedMore: 0 }]);
    const slack = JSON.parse(f.slack.received[0]?.body ?? '{}') as { text: string; blocks: unknown[] };
    expect(slack.text).toContain('applied');
    expect(JSON.stringify(slack.blocks)).toContain('`acme.com`');
    const teams = JSON.parse(f.teams.received[0]?.body ?? '{}') as { attachments: { contentType: string }[] };
    expect(teams.attachments[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expectNoSecret(f, result.stdout, result.stderr, ...[f.hook, f.slack, f.teams].map((r) => r.received[0]?.body ?? ''));
  });

  it('--format json carries notifications, printed after delivery; --no-notify sends nothing', async () => {
    const f = await fixture({ answers: { slack: [500] } });
    const result = await f.run('apply', '--yes', '--format', 'json');
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as { notifications: unknown[] };
    expect(document.notifications).toEqual([
      { to: 'webhook', variable: 'AUTOJOIN_NOTIFY_HOOK_URL', delivered: true, attempts: 1 },
      { to: 'slack', variable: 'AUTOJOIN_NOTIFY_SLACK_URL', delivered: false, attempts: 3 },
      { to: 'teams', variable: 'AUTOJOIN_NOTIFY_TEAMS_URL', delivered: true, attempts: 1 },
    ]);
    expect(result.stderr).toMatch(/notification to slack \(AUTOJOIN_NOTIFY_SLACK_URL\) failed: HTTP 500 after 3 attempts/u);
    expect(f.slack.received).toHaveLength(3);
    await writeFile(path.join(f.dir, 'eng.autojoin.yaml'), policy('eng', ['acme.com']));
    commitAll(f.dir);
    const quiet = await f.run('apply', '--yes', '--no-notify');
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(f.hook.received).toHaveLength(1);
  });

  it('refused: the limit, and the flag that lets it through; exit 3 stands', async () => {
    const f = await fixture();
    expect((await f.run('apply', '--yes', '--no-notify')).code).toBe(0);
    await writeFile(path.join(f.dir, 'eng.autojoin.yaml'), policy('eng', ['acme.com']));
    commitAll(f.dir);
    const result = await f.run('apply', '--yes', '--max-removals', '0', '--format', 'json');
    expect(result.code).toBe(3);
    const body = webhookBody(f.hook);
    expect(body).toMatchObject({ event: 'refused', exitCode: 3, refusal: { check: 'safety limit', override: '--max-removals 1' } });
    expect((JSON.parse(result.stdout) as { notifications: unknown[] }).notifications).toHaveLength(3);
  });

  it('a required target that fails turns exit 0 into 1; unset, it stops the run before any write', async () => {
    const project = NOTIFY.replace('    urlEnv: AUTOJOIN_NOTIFY_TEAMS_URL\n', '    urlEnv: AUTOJOIN_NOTIFY_TEAMS_URL\n    required: true\n');
    const f = await fixture({ project, answers: { teams: [503] } });
    const failed = await f.run('apply', '--yes');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('notification to teams (AUTOJOIN_NOTIFY_TEAMS_URL) failed');
    expect(f.emulator.data().scopes['team/eng']).toBeDefined();
    await writeFile(path.join(f.dir, 'eng.autojoin.yaml'), policy('eng', ['acme.com', 'acme.io', 'acme.net']));
    commitAll(f.dir);
    const unset = await runInProcess(['apply', '--yes'], { cwd: f.dir, env: { ...f.env, AUTOJOIN_NOTIFY_TEAMS_URL: undefined } });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('AUTOJOIN_NOTIFY_TEAMS_URL is not set');
    expect(f.emulator.data().scopes['team/eng']?.autojoin?.domains.map((d) => d.domain)).not.toContain('acme.net');
  });

  it('an unset target that is not required is one warning when the run sends, none when it does not', async () => {
    const f = await fixture();
    const env = { ...f.env, AUTOJOIN_NOTIFY_SLACK_URL: undefined };
    expect((await f.run('apply', '--yes', '--no-notify')).code).toBe(0);
    const nothing = await runInProcess(['apply', '--yes'], { cwd: f.dir, env });
    expect(nothing.code, nothing.stderr).toBe(0);
    expect(nothing.stderr).not.toContain('AUTOJOIN_NOTIFY_SLACK_URL');
    await writeFile(path.join(f.dir, 'eng.autojoin.yaml'), policy('eng', ['acme.com']));
    commitAll(f.dir);
    const sent = await runInProcess(['apply', '--yes'], { cwd: f.dir, env });
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stderr).toContain('notification to slack (AUTOJOIN_NOTIFY_SLACK_URL) skipped: AUTOJOIN_NOTIFY_SLACK_URL is not set');
    expect(f.hook.received).toHaveLength(1);
  });
});

describe('plan --notify', () => {
  it('drift: counts changes outside and pending apart; plan without --notify sends nothing', async () => {
    const f = await fixture({ files: { 'eng.autojoin.yaml': policy('eng', ['acme.com']), 'ops.autojoin.yaml': policy('ops', ['acme.org']) } });
    expect((await f.run('apply', '--yes', '--no-notify')).code).toBe(0);
    // An admin adds a hostile domain name outside this repository; the repository adds a scope.
    const response = await fetch(`${f.emulator.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ scope: 'eng', scopeType: 'team', componentId: 'c1', domains: ['acme.com', 'www.evil.example'] }),
    });
    expect(response.ok).toBe(true);
    await writeFile(path.join(f.dir, 'web.autojoin.yaml'), policy('web', ['acme.net']));
    commitAll(f.dir);
    expect((await f.run('plan')).code).toBe(0);
    expect(f.hook.received).toHaveLength(0);
    const result = await f.run('plan', '--notify', '--detailed-exitcode');
    expect(result.code, result.stderr).toBe(2);
    const body = webhookBody(f.hook);
    expect(body).toMatchObject({ event: 'drift', command: 'plan', exitCode: 2, counts: { outside: 1, pending: 1 } });
    const teams = f.teams.received[0]?.body ?? '';
    expect(teams).toContain('www[.]evil.example');
    expect(teams).not.toContain('www.evil.example');
  });
});
