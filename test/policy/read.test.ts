/**
 * The loader's batch reads (blocking calls, each directory's real path resolved once): the same
 * protection as one safe read per file, whichever way a path leaves the repository.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicies, readPolicySources } from '../../src/policy/index.js';

let dir: string;
let repo: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-read-'));
  repo = path.join(dir, 'repo');
  await mkdir(path.join(repo, '.git'), { recursive: true });
  await mkdir(path.join(dir, 'outside'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const policy = (scope: string): string => `scope: ${scope}\nscopeType: default\ncomponentId: c\ndomains:\n  - ${scope}-example.com\n`;

describe('batch reads of policy files', () => {
  it('refuse a file whose directory is a symlink out of the repository, next to files that load', async () => {
    await writeFile(path.join(dir, 'outside/b.autojoin.yaml'), policy('b'));
    await writeFile(path.join(repo, 'a.autojoin.yaml'), policy('a'));
    await symlink(path.join(dir, 'outside'), path.join(repo, 'linked'));
    const result = await loadPolicies(['a.autojoin.yaml', 'linked/b.autojoin.yaml'], { cwd: repo });
    expect(result.policies.map((p) => p.scope)).toEqual(['a']);
    expect(result.diagnostics).toHaveLength(1);
    expect(result.diagnostics[0]).toMatchObject({ file: 'linked/b.autojoin.yaml', line: 1, column: 1, code: 'unsafe-file' });
    expect(result.diagnostics[0]?.message).toMatch(/^policy file .*linked\/b\.autojoin\.yaml resolves to .*outside\/b\.autojoin\.yaml, outside /u);
  });

  it('read every file of a batch larger than one turn of the event loop, in order', async () => {
    const names = Array.from({ length: 600 }, (_, i) => `team-${String(i).padStart(3, '0')}.autojoin.yaml`);
    await Promise.all(names.map((name, i) => writeFile(path.join(repo, name), policy(`t${i}`))));
    const read = await readPolicySources(names.map((name) => path.join(repo, name)), repo);
    expect(read.diagnostics).toEqual([]);
    expect(read.sources.map((source) => source.file)).toEqual(names);
    expect(read.sources[599]?.text).toBe(policy('t599'));
  });

  it('read a file of exactly the expected size, and an empty one, whole', async () => {
    await writeFile(path.join(repo, 'a.autojoin.yaml'), policy('a'));
    await writeFile(path.join(repo, 'empty.autojoin.yaml'), '');
    const read = await readPolicySources([path.join(repo, 'a.autojoin.yaml'), path.join(repo, 'empty.autojoin.yaml')], repo);
    expect(read.sources).toEqual([
      { file: 'a.autojoin.yaml', text: policy('a') },
      { file: 'empty.autojoin.yaml', text: '' },
    ]);
  });
});
