/** fmt keeps a comment with the domain it labels when it sorts, and an IDN as written. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-fmt-labels-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HEAD = 'scope: acme\nscopeType: team\ncomponentId: cmp_1\ndomains:\n';

async function fmt(text: string): Promise<string> {
  const file = path.join(dir, 'a.autojoin.yaml');
  await writeFile(file, text);
  const run = await runCli(['fmt'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  const formatted = await readFile(file, 'utf8');
  expect((await runCli(['fmt', '--check'], { cwd: dir })).code).toBe(0);
  return formatted;
}

describe('fmt', () => {
  it('moves the comment above the first domain with that domain when it sorts', async () => {
    const text = `${HEAD}  # the zeta team, since 2021\n  - zeta.example\n  # alpha\n  - alpha.example\n`;
    expect(await fmt(text)).toBe(`${HEAD}  # alpha\n  - alpha.example\n  # the zeta team, since 2021\n  - zeta.example\n`);
  });

  it('keeps a comment heading the whole list (a blank line before the first domain) on top', async () => {
    const text = `${HEAD}  # every domain we own\n\n  # zeta\n  - zeta.example\n  - alpha.example\n`;
    const formatted = await fmt(text);
    expect(formatted.indexOf('# every domain we own')).toBeLessThan(formatted.indexOf('- alpha.example'));
    expect(formatted).toMatch(/# zeta\n {2}- zeta\.example/);
  });

  it('keeps an internationalized domain as written (no punycode in the source); plans still send punycode', async () => {
    const formatted = await fmt(`${HEAD}  - München-x.de.\n  - b.example\n`);
    expect(formatted).toContain('- münchen-x.de\n');
    expect(formatted).not.toContain('xn--');
    const planned = await runCli(['plan', '--emulator', '--format', 'json'], { cwd: dir });
    expect(planned.stdout).toContain('xn--mnchen-x-65a.de');
  });
});
