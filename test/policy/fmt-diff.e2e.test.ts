/** `fmt --check --diff`: a unified diff of what fmt would change, which `git apply` accepts. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const MESSY = '# the team\nscope: acme\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - Beta.example.\n  - acme.example\n  - acme.example\n';
const CANONICAL = 'scope: ok\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - ok.example\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-fmt-diff-'));
  await writeFile(path.join(dir, 'messy.autojoin.yaml'), MESSY);
  await writeFile(path.join(dir, 'ok.autojoin.yaml'), CANONICAL);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('fmt --diff', () => {
  it('with --check prints a unified diff, changes nothing, exits 1; git apply of the diff gives what fmt writes', async () => {
    const checked = await runCli(['fmt', '--check', '--diff'], { cwd: dir });
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/^--- a\/messy\.autojoin\.yaml\n\+\+\+ b\/messy\.autojoin\.yaml\n@@ /);
    expect(checked.stdout).toContain('-  - Beta.example.\n');
    expect(checked.stdout).not.toContain('ok.autojoin.yaml');
    expect(checked.stderr).toContain('would reformat 1 of 2 files');
    expect(await readFile(path.join(dir, 'messy.autojoin.yaml'), 'utf8')).toBe(MESSY);

    execFileSync('git', ['apply', '-'], { cwd: dir, input: checked.stdout });
    const patched = await readFile(path.join(dir, 'messy.autojoin.yaml'), 'utf8');
    await writeFile(path.join(dir, 'messy.autojoin.yaml'), MESSY);
    const written = await runCli(['fmt', '--diff'], { cwd: dir });
    expect(written.code).toBe(0);
    expect(written.stdout).toBe(checked.stdout);
    expect(await readFile(path.join(dir, 'messy.autojoin.yaml'), 'utf8')).toBe(patched);
    expect(patched).toBe('# the team\nscope: acme\nscopeType: team\ncomponentId: cmp_1\ndomains:\n  - acme.example\n  - beta.example\n');
  });

  it('prints nothing and exits 0 when every file is formatted', async () => {
    await writeFile(path.join(dir, 'messy.autojoin.yaml'), CANONICAL.replace('ok', 'other'));
    const run = await runCli(['fmt', '--check', '--diff', '--quiet'], { cwd: dir });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
