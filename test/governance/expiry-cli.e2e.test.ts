/**
 * Time-bound grants end to end, as a user runs them: a spawned CLI against the embedded emulator,
 * "today" fixed with AUTOJOIN_NOW. An expired entry is removed by the plan with its reason in
 * text, markdown and JSON; one within 14 days is warned about at its file:line in validate and plan.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const POLICY = `scope: acme
scopeType: team
componentId: c1
domains:
  - acme.com
  - domain: contractor.example
    expires: 2026-03-10
    reason: SEC-42 audit
  - {domain: old.example, expires: 2026-02-01}
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'expiry-'));
  await writeFile(path.join(dir, 'acme.autojoin.yaml'), POLICY);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const at = (day: string, args: string[]): ReturnType<typeof runCli> => runCli(args, { cwd: dir, env: { AUTOJOIN_NOW: day } });

describe('time-bound domain entries', () => {
  it('the plan removes an expired entry with the reason, in text, markdown and JSON', async () => {
    expect((await at('2026-01-01', ['apply', '--emulator', '--yes', '--no-prune', '.'])).code).toBe(0);
    const text = await at('2026-03-01', ['plan', '--emulator', '--no-prune', '.']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('~ team/acme  update: +0 -1, 2 unchanged\n    - old.example  (expired 2026-02-01)\n');
    const markdown = await at('2026-03-01', ['plan', '--emulator', '--no-prune', '--format', 'markdown', '.']);
    expect(markdown.stdout).toContain('- old.example  (expired 2026-02-01)');
    const json = JSON.parse((await at('2026-03-01', ['plan', '--emulator', '--no-prune', '--format', 'json', '.'])).stdout) as {
      changes: { removed: string[]; removalReasons?: unknown }[];
    };
    expect(json.changes[0]?.removed).toEqual(['old.example']);
    expect(json.changes[0]?.removalReasons).toEqual([{ domain: 'old.example', reason: 'expired 2026-02-01' }]);
  });

  it('on its last day an entry is still desired; the day after it is not', async () => {
    expect((await at('2026-01-01', ['apply', '--emulator', '--yes', '--no-prune', '.'])).code).toBe(0);
    expect((await at('2026-03-10', ['plan', '--emulator', '--no-prune', '.'])).stdout).not.toContain('contractor.example');
    expect((await at('2026-03-11', ['plan', '--emulator', '--no-prune', '.'])).stdout).toContain('- contractor.example  (expired 2026-03-10)');
  });

  it('warns within 14 days of the date at the entry, in validate and plan; not before', async () => {
    const warning = 'acme.autojoin.yaml:6:5: warning: contractor.example expires on 2026-03-10, in 14 days (SEC-42 audit)';
    expect((await at('2026-02-24', ['validate', '.'])).stdout).toContain(warning);
    expect((await at('2026-02-23', ['validate', '.'])).stdout).not.toContain('expires on');
    expect((await at('2026-02-24', ['plan', '--emulator', '--no-prune', '.'])).stderr).toContain(warning);
  });

  it('refuses an AUTOJOIN_NOW that is not a day', async () => {
    const result = await at('tomorrow', ['validate', '.']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('AUTOJOIN_NOW must be a day written YYYY-MM-DD (it is for tests), got "tomorrow"');
  });
});
