/** A policy file whose name holds a line break (or another control character) is an error at discovery, never skipped in silence. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverPolicyFiles } from '../../src/policy/discover.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'control-name-'));
  await mkdir(path.join(dir, 'policies'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a policy file name with a control character', () => {
  it.each([['a line break', 'a\nb.autojoin.yaml'], ['a carriage return', 'a\rb.autojoin.yml'], ['an escape', 'a\u001bb.autojoin.yaml']])('%s: an error naming the file', async (_what, name) => {
    await writeFile(path.join(dir, 'policies', name), 'scope: a\nscopeType: team\ncomponentId: c\ndomains: [acme.com]\n');
    await writeFile(path.join(dir, 'policies', 'ok.autojoin.yaml'), 'scope: k\nscopeType: team\ncomponentId: c\ndomains: [acme.com]\n');
    const { files, diagnostics } = await discoverPolicyFiles(['policies'], dir);
    expect(files.map((file) => path.basename(file))).toEqual(['ok.autojoin.yaml']);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'policy-file-name', file: `policies/${name}` });
  });
});
