/**
 * Notifications of a run of several projects (design: "Many projects, one run", "Notifications"):
 * each project tells its own targets about its own scopes; a project refused because another was
 * hears only that. The three-team monorepo through the CLI in-process, two real receivers on 127.0.0.1.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import webhookSchema from '../../schemas/notify-webhook.schema.json' with { type: 'json' };
import { runInProcess } from '../support/in-process.js';
import { commitAll } from '../support/git.js';
import { makeMonorepo, MONOREPO_FILES, MONOREPO_NOW } from '../support/monorepo.js';
import { SECRET, startReceiver, type Receiver } from '../notify/support.js';

const SLOW = 120_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const withNotify = (projectFile: string, variable: string): string => `${projectFile}notify:\n  - to: webhook\n    urlEnv: ${variable}\n    secretEnv: AUTOJOIN_NOTIFY_SECRET\n`;

async function fixture(opsVariable = 'AUTOJOIN_NOTIFY_OPS'): Promise<{ dir: string; eng: Receiver; ops: Receiver; cli: (...args: string[]) => ReturnType<typeof runInProcess> }> {
  const dir = makeMonorepo({
    'teams/eng/autojoin-sync.yaml': withNotify(MONOREPO_FILES['teams/eng/autojoin-sync.yaml'] ?? '', 'AUTOJOIN_NOTIFY_ENG'),
    'teams/ops/autojoin-sync.yaml': withNotify(MONOREPO_FILES['teams/ops/autojoin-sync.yaml'] ?? '', opsVariable),
  });
  const eng = await startReceiver([200]);
  const ops = await startReceiver([200]);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }), () => eng.close(), () => ops.close());
  const env = { AUTOJOIN_NOW: MONOREPO_NOW, AUTOJOIN_BASE_URL: undefined, AUTOJOIN_API_KEY: undefined, AUTOJOIN_ACCESS_TOKEN: undefined, AUTOJOIN_NOTIFY_ENG: eng.url, AUTOJOIN_NOTIFY_OPS: ops.url, AUTOJOIN_NOTIFY_SECRET: SECRET };
  return { dir, eng, ops, cli: (...args: string[]) => runInProcess(args, { cwd: dir, env }) };
}

interface Body {
  event: string;
  owner: string;
  exitCode: number;
  scopes: { key: string }[];
  refusal?: { check: string; reason: string };
}

const validateWebhook = new Ajv2020({ strict: true, allErrors: true }).compile(webhookSchema);

/** Each body the receiver got, valid against schemas/notify-webhook.schema.json. */
function bodies(receiver: Receiver): Body[] {
  return receiver.received.map((one) => {
    const body: unknown = JSON.parse(one.body);
    expect(validateWebhook(body), JSON.stringify(validateWebhook.errors)).toBe(true);
    return body as Body;
  });
}

describe('notifications of a run of several projects', () => {
  it("each project's targets hear of its own scopes only, under its own owner", async () => {
    const f = await fixture();
    const apply = await f.cli('apply', '--yes');
    expect(apply.code, apply.stderr).toBe(0);
    expect(bodies(f.eng).map((body) => [body.event, body.owner, body.scopes.map((scope) => scope.key)])).toEqual([['applied', 'eng', ['team/acme-eng', 'team/acme-platform']]]);
    expect(bodies(f.ops).map((body) => [body.event, body.owner, body.scopes.map((scope) => scope.key)])).toEqual([['applied', 'ops', ['workspace/ops-oncall']]]);
  }, SLOW);

  it('the project refused hears its refusal; another project hears only that another was refused', async () => {
    const f = await fixture();
    expect((await f.cli('apply', '--yes', '--no-notify')).code).toBe(0);
    // ops removes three domains (its limit is 2); eng adds one.
    const write = (file: string, text: string): void => writeFileSync(path.join(f.dir, ...file.split('/')), text);
    write('teams/ops/ops.autojoin.yaml', ['scope: ops-oncall', 'domains:', '  - acme-ops.com', ''].join('\n'));
    write('teams/ops/more.autojoin.yaml', ['scope: ops-more', 'domains:', '  - acme-ops.com', ''].join('\n'));
    commitAll(f.dir, 'ops');
    expect((await f.cli('apply', '--yes', '--no-notify')).code).toBe(0);
    write('teams/ops/ops.autojoin.yaml', ['scope: ops-oncall', 'domains: []', ''].join('\n'));
    write('teams/ops/more.autojoin.yaml', ['scope: ops-more', 'domains: []', ''].join('\n'));
    write('teams/eng/policies/eng.autojoin.yaml', ['scope: acme-eng', 'domains:', '  - acme.co.uk', '  - acme.com', '  - acme.de', '---', 'scope: acme-platform', 'domains:', '  - acme.com', ''].join('\n'));
    commitAll(f.dir, 'ops clears two, eng adds one');
    const apply = await f.cli('apply', '--yes', '--max-removals', '1');
    expect(apply.code, apply.stderr).toBe(3);
    const [ops] = bodies(f.ops);
    expect(ops).toMatchObject({ event: 'refused', owner: 'ops', exitCode: 3, refusal: { check: 'safety limit' } });
    expect(ops?.refusal?.reason).toContain('teams/ops/autojoin-sync.yaml');
    const [eng] = bodies(f.eng);
    expect(eng).toMatchObject({ event: 'refused', owner: 'eng', exitCode: 3, refusal: { check: 'another project refused' } });
    expect(eng?.scopes.map((scope) => scope.key)).toEqual(['team/acme-eng']);
    // Nothing of ops' refusal reaches eng's target.
    expect(f.eng.received[0]?.body).not.toContain('ops');
  }, SLOW);

  it("a URL two projects name gets one message a run: the first project's, and the second says so", async () => {
    const f = await fixture('AUTOJOIN_NOTIFY_ENG');
    const apply = await f.cli('apply', '--yes');
    expect(apply.code, apply.stderr).toBe(0);
    expect(bodies(f.eng).map((body) => body.owner)).toEqual(['eng']);
    expect(f.ops.received).toEqual([]);
    expect(apply.stderr).toContain("teams/ops/autojoin-sync.yaml: notify webhook (AUTOJOIN_NOTIFY_ENG) is the URL teams/eng/autojoin-sync.yaml also notifies; one message per URL per run: it gets teams/eng/autojoin-sync.yaml's");
    expect(apply.stderr).not.toContain(f.eng.url);
  }, SLOW);
});
