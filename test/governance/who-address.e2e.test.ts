/** `who user@acme.com` and `who https://acme.com/path` look up the domain, as validate suggests for such entries. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'who-address-'));
  await mkdir(path.join(dir, 'policies'));
  await writeFile(path.join(dir, 'policies/a.autojoin.yaml'), 'scope: a\nscopeType: team\ncomponentId: c1\ndomains:\n  - acme.com\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('who, given an email address or a URL', () => {
  it('takes the domain of the address and the host of the URL', async () => {
    const result = await runCli(['who', 'user@acme.com', 'https://ACME.com/join?x=1', 'policies'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('acme.com: 1 scope\n  team/a  policies/a.autojoin.yaml:5\nacme.com: 1 scope\n  team/a  policies/a.autojoin.yaml:5\n');
  });
});
