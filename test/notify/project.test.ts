/**
 * `notify:` in the project file: each problem at its file:line:col, a literal URL or secret never
 * repeated in the message; and `notifyAfterRun`'s exit codes with a required target that fails.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseProjectSource } from '../../src/policy/project.js';
import { notifyAfterRun } from '../../src/commands/notify-command.js';
import type { NotifyTargetConfig } from '../../src/policy/types.js';
import { startReceiver, type Receiver } from './support.js';

const HOOK = 'https://hooks.slack.com/services/T0/B0/abcdefSECRET';

function problems(text: string): string[] {
  return parseProjectSource({ file: 'autojoin-sync.yaml', text }, '/repo/autojoin-sync.yaml').diagnostics.map((d) => `${d.line}:${d.column} ${d.code}: ${d.message}`);
}

describe('notify: in the project file', () => {
  it('a valid list has no problem', () => {
    expect(problems('notify:\n  - to: webhook\n    urlEnv: AUTOJOIN_NOTIFY_HOOK_URL\n    secretEnv: AUTOJOIN_NOTIFY_HOOK_SECRET\n  - to: slack\n    urlEnv: AUTOJOIN_NOTIFY_SLACK_URL\n    on: [refused, drift]\n    required: true\n')).toEqual([]);
  });

  it('a literal URL is an error at its place, never repeated', () => {
    const found = problems(`notify:\n  - to: slack\n    urlEnv: ${HOOK}\n  - to: teams\n    url: ${HOOK}\n    urlEnv: AUTOJOIN_NOTIFY_T\n`);
    expect(found).toEqual([
      expect.stringMatching(/^3:13 notify-literal-secret: notify\[0\]\.urlEnv: a URL or secret is never written in the project file/u),
      expect.stringMatching(/^5:5 notify-literal-secret: notify\[1\]\.url: /u),
    ]);
    expect(found.join('\n')).not.toContain('abcdefSECRET');
  });

  it('a variable outside AUTOJOIN_NOTIFY_*, an unsigned webhook, a secret on Slack, one variable for two kinds', () => {
    expect(problems('notify:\n  - to: slack\n    urlEnv: AUTOJOIN_API_KEY\n  - to: webhook\n    urlEnv: AUTOJOIN_NOTIFY_A\n  - to: teams\n    urlEnv: AUTOJOIN_NOTIFY_A\n    secretEnv: AUTOJOIN_NOTIFY_S\n')).toEqual([
      '3:13 invalid-value: notify[0].urlEnv: must be the name of an environment variable matching AUTOJOIN_NOTIFY_[A-Z0-9_]+ (no other variable can become a URL or a secret), got "AUTOJOIN_API_KEY"',
      expect.stringMatching(/^4:5 notify-unsigned: notify\[1\]: a webhook target needs secretEnv/u),
      '7:13 notify-one-kind: notify[2].urlEnv: AUTOJOIN_NOTIFY_A is already a webhook target; one URL gets one kind of message',
      '8:5 notify-secret-unused: notify[2].secretEnv: only a webhook target is signed; teams has no secret',
    ]);
  });
});

describe('a required target that fails', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
  });

  it.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [3, 3],
    [4, 4],
  ])('turns exit %i into %i', async (before, after) => {
    receiver = await startReceiver([500]);
    const notify: NotifyTargetConfig[] = [{ to: 'slack', urlEnv: 'AUTOJOIN_NOTIFY_S', required: true }];
    const outcome =
      before === 2
        ? { command: 'plan' as const, plan: { changes: [], drift: [{ key: 'team/a', origin: 'drift' as const, live: [], outside: { added: ['a.example'], removed: [], fields: [] } }], target: 'x' }, exitCode: 2 }
        : before === 0
          ? { command: 'apply' as const, report: { applied: [{ key: 'team/a' as never, kind: 'create' as const, domains: [] }], failed: [], skipped: [] }, exitCode: 0 }
          : { command: 'apply' as const, error: Object.assign(new Error('stopped'), { exitCode: before }), exitCode: before };
    const warnings: string[] = [];
    const told = await notifyAfterRun(outcome, {
      context: { project: { notify }, owner: 'o', notifyEnv: {} },
      service: 'https://invitations.example.com/api',
      enabled: true,
      env: { AUTOJOIN_NOTIFY_S: receiver.url },
      onWarning: (text) => warnings.push(text),
      delivery: { retryDelayMs: 1 },
    });
    expect(told.exitCode).toBe(after);
    expect(told.requiredFailed).toEqual([{ to: 'slack', variable: 'AUTOJOIN_NOTIFY_S' }]);
    expect(warnings).toEqual(['notification to slack (AUTOJOIN_NOTIFY_S) failed: HTTP 500 after 3 attempts']);
  });
});
