/**
 * Two runs in one process (the in-process tier runs many commands in one worker; the action runs
 * several steps): each front end enters a run of its own (src/output/run-scope.ts), and what the
 * core reads deep down (the sinks' and the redactor's secrets, the wording of a hint, the project
 * file a hint names, `log()`) is that run's, through every await. Two plans made at once through
 * the command layer against the emulator over loopback, each with its own secret, wording,
 * project file and logger.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { applyWouldRefuse, planCommand } from '../../src/commands/plan-command.js';
import type { Wording } from '../../src/hint.js';
import { createLogger, log } from '../../src/output/log.js';
import { withRunScope } from '../../src/output/run-scope.js';
import { redactOutput } from '../../src/output/sinks.js';
import { runScopeOf } from '../../src/run/context.js';
import { settingsIn } from '../../src/run/settings.js';
import { createClient } from '../../src/service/client.js';
import { KEY, repo, type Repo } from '../meetings/support.js';

const DAY = '2026-03-01';
const SECRET = { A: 'sk_run_A_secret_7c41e2', B: 'sk_run_B_secret_09fd3b' } as const;
const policy = (scope: string, domain: string): string => `scope: ${scope}\nscopeType: team\ncomponentId: c1\ndomains:\n  - ${domain}\n`;

let current: Repo | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** A live scope whose name and metadata echo `secret`, with three domains its policy file removes (over the 10% limit). */
async function echoing(r: Repo, scope: string, domains: string[], secret: string): Promise<void> {
  const body = { scope, scopeType: 'team', componentId: 'c1', scopeName: `Team ${secret}`, domains, metadata: { note: secret } };
  const response = await fetch(`${r.emulator.url}/api/v1/invitations/autojoin`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

/** One front end's run: its own secret, wording, project file and logger; the plan made through the command layer. */
function planRun(r: Repo, name: 'A' | 'B') {
  const lines: string[] = [];
  const logger = createLogger({ level: 'normal', write: (line) => lines.push(line) });
  const wording: Wording = (named) => `${name}:${named.setting}`;
  const context = settingsIn(r.dir, { env: { AUTOJOIN_NOW: DAY, VORTEX_API_KEY: SECRET[name] }, flags: { maxRemovalPercent: 10 } });
  const client = createClient({ baseUrl: r.emulator.url, apiKey: KEY, retry: { maxRetries: 0 } });
  // As a front end: the run first, then nested with the resolved context's values.
  return withRunScope({ wording, logger, projectFile: `${name.toLowerCase()}/autojoin-sync.yaml` }, () =>
    withRunScope(runScopeOf(context), async () => {
      const { plan } = await planCommand({ context, client });
      if (!plan) throw new Error('no plan');
      const refusals = applyWouldRefuse(plan, context.limits).map((refusal) => refusal.message);
      const output = redactOutput(JSON.stringify(plan));
      log().info(`done with ${SECRET[name]}`);
      return { plan, refusals, output, lines };
    }),
  );
}

describe('two runs in one process', () => {
  it('two plans made at once do not see each other\'s secrets, wording, project file or logger', async () => {
    const r = (current = await repo({ 'acme.autojoin.yaml': policy('acme', 'a.example'), 'beta.autojoin.yaml': policy('beta', 'b.example') }));
    await echoing(r, 'acme', ['a.example', 'x1.example', 'x2.example', 'x3.example'], SECRET.A);
    await echoing(r, 'beta', ['b.example', 'y1.example', 'y2.example', 'y3.example'], SECRET.B);

    const [a, b] = await Promise.all([planRun(r, 'A'), planRun(r, 'B')]);

    // Each run marks the scope that echoes its own secret, and its outputs hide it.
    expect(a.plan.redacted).toEqual(['team/acme']);
    expect(b.plan.redacted).toEqual(['team/beta']);
    expect(a.output).not.toContain(SECRET.A);
    expect(b.output).not.toContain(SECRET.B);
    // Each run's log lines went to its own logger, redacted with its own secret, in its own words.
    expect(a.lines).toEqual([expect.stringMatching(/^warning: the service shows a secret of this run .*team\/acme.* with A:planFile$/u), 'done with ***']);
    expect(b.lines).toEqual([expect.stringMatching(/^warning: the service shows a secret of this run .*team\/beta.* with B:planFile$/u), 'done with ***']);
    // A refusal made deep in the plan core names the run's own setting words and project file.
    expect(a.refusals.join('\n')).toContain('A:maxRemovalPercent');
    expect(a.refusals.join('\n')).toContain('a/autojoin-sync.yaml');
    expect(a.refusals.join('\n')).not.toMatch(/B:|b\/autojoin/u);
    expect(b.refusals.join('\n')).toContain('B:maxRemovalPercent');
    expect(b.refusals.join('\n')).toContain('b/autojoin-sync.yaml');
    expect(b.refusals.join('\n')).not.toMatch(/A:|a\/autojoin/u);
  });
});
