/**
 * docs/notifications.md: its receiver example, run as written, accepts what a run signs and refuses
 * a forged body and a replayed timestamp; its example webhook body is valid against the schema.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import webhookSchema from '../../schemas/notify-webhook.schema.json' with { type: 'json' };
import { signingHeaders } from '../../src/notify/sign.js';
import { SECRET } from './support.js';

const page = readFileSync(new URL('../../docs/notifications.md', import.meta.url), 'utf8');

function between(start: string, end: string): string {
  const from = page.indexOf(start);
  const to = page.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`${start} not found`);
  return page.slice(from + start.length, to);
}

describe('docs/notifications.md', () => {
  it('the receiver example verifies a signed body and refuses a forged one and a replay', async () => {
    const code = /```js\n([\s\S]*?)```/u.exec(between('<!-- verify-example -->', '<!-- /verify-example -->'))?.[1] ?? '';
    const dir = await mkdtemp(path.join(tmpdir(), 'notify-docs-'));
    try {
      await writeFile(path.join(dir, 'receiver.mjs'), code);
      const body = '{"version":1,"event":"applied"}';
      const now = 1_700_000_000;
      const headers = signingHeaders(SECRET, now, body);
      const check = `
        import { verifyAutojoin } from './receiver.mjs';
        const headers = ${JSON.stringify(headers)};
        const body = ${JSON.stringify(body)};
        console.log(JSON.stringify([
          verifyAutojoin(body, headers, ${JSON.stringify(SECRET)}, ${now + 10}),
          verifyAutojoin(body.replace('applied', 'drift'), headers, ${JSON.stringify(SECRET)}, ${now + 10}),
          verifyAutojoin(body, headers, ${JSON.stringify(SECRET)}, ${now + 3600}),
          verifyAutojoin(body, headers, 'another secret of at least 32 bytes!!', ${now + 10}),
        ]));`;
      await writeFile(path.join(dir, 'check.mjs'), check);
      const out = execFileSync(process.execPath, [path.join(dir, 'check.mjs')], { encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual([true, false, false, false]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the example webhook body is valid against schemas/notify-webhook.schema.json', () => {
    const example = /### webhook\n\n```json\n([\s\S]*?)```/u.exec(page)?.[1] ?? 'null';
    const validate = new Ajv2020({ strict: true }).compile(webhookSchema);
    expect(validate(JSON.parse(example)), JSON.stringify(validate.errors)).toBe(true);
  });
});
