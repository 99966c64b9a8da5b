/**
 * The notification variables' values are the run's secrets: every AUTOJOIN_NOTIFY_* value and each
 * URL's path and query (the token's home) is redacted from every output, and from every body sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { configuredSecrets } from '../../src/run/secrets.js';
import { setOutputSecrets } from '../../src/output/sinks.js';
import { notify } from '../../src/notify/index.js';
import { SECRET, startReceiver, type Receiver } from './support.js';

let receiver: Receiver | undefined;
afterEach(async () => {
  setOutputSecrets([]);
  await receiver?.close();
});

describe('notification secrets', () => {
  it('every AUTOJOIN_NOTIFY_* value and each URL path are the run secrets; no other variable', () => {
    const secrets = configuredSecrets({ AUTOJOIN_NOTIFY_SLACK_URL: 'https://hooks.slack.com/services/T0/B0/XYZ', AUTOJOIN_NOTIFY_HOOK_SECRET: SECRET, AUTOJOIN_NOTIFY_X: 'short', HOME: '/root' });
    expect(secrets.map((secret) => [secret.name, secret.value])).toEqual([
      ['AUTOJOIN_NOTIFY_HOOK_SECRET', SECRET],
      ['AUTOJOIN_NOTIFY_SLACK_URL', 'https://hooks.slack.com/services/T0/B0/XYZ'],
      ['AUTOJOIN_NOTIFY_SLACK_URL', '/services/T0/B0/XYZ'],
    ]);
  });

  it('a body holding a secret (an echo in an error, in a scope id) is redacted before it is sent', async () => {
    receiver = await startReceiver([200]);
    const env = { AUTOJOIN_NOTIFY_S: receiver.url };
    setOutputSecrets(configuredSecrets(env).map((secret) => secret.value));
    const error = new Error(`the service echoed ${receiver.url} and ${new URL(receiver.url).pathname}`);
    const result = await notify(
      { command: 'apply', error, exitCode: 1, plan: { changes: [], drift: [], target: 'x' }, report: { applied: [], failed: [{ key: `team/${new URL(receiver.url).pathname}` as never, kind: 'create', reason: 'echo' }], skipped: [] } },
      { entries: [{ to: 'slack', urlEnv: 'AUTOJOIN_NOTIFY_S' }], env, facts: { owner: 'o', service: 'h' }, enabled: true, onWarning: () => undefined },
    );
    expect(result.notifications).toEqual([{ to: 'slack', variable: 'AUTOJOIN_NOTIFY_S', delivered: true, attempts: 1 }]);
    const body = receiver.received[0]?.body ?? '';
    expect(body).toContain('the service echoed');
    expect(body).not.toContain('T0SECRET');
    expect(body).toContain('***');
  });
});
