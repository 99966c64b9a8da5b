/** Which autojoin-sync.yaml governs a command: nearest at or above the policy paths, within the repository. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findProjectFile, loadProjectConfig } from '../../src/policy/project.js';

let root: string;
afterEach(() => rm(root, { recursive: true, force: true }));

async function tree(files: Record<string, string>): Promise<string> {
  root = await mkdtemp(path.join(tmpdir(), 'autojoin-project-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  return root;
}

describe('findProjectFile', () => {
  it('takes the one beside the policy directory over the one in the working directory', async () => {
    const cwd = await tree({
      'repo/.git/HEAD': '',
      'repo/autojoin-sync.yaml': 'defaults: { componentId: cmp_root }\n',
      'repo/examples/autojoin-sync.yaml': 'defaults: { componentId: cmp_examples }\n',
      'repo/examples/policies/a.autojoin.yaml': '',
    });
    const repo = path.join(cwd, 'repo');
    expect(await findProjectFile(repo, ['examples/policies'])).toBe(path.join(repo, 'examples/autojoin-sync.yaml'));
    const { config } = await loadProjectConfig(repo, ['examples/policies/a.autojoin.yaml']);
    expect(config.defaults?.componentId).toBe('cmp_examples');
  });

  it('falls back to the working directory, and never climbs above the repository root', async () => {
    const cwd = await tree({
      'autojoin-sync.yaml': 'defaults: { componentId: cmp_outside }\n',
      'repo/.git/HEAD': '',
      'repo/policies/a.autojoin.yaml': '',
    });
    const repo = path.join(cwd, 'repo');
    expect(await findProjectFile(repo, ['policies'])).toBeNull();
    expect(await findProjectFile(cwd, ['repo/policies'])).toBe(path.join(cwd, 'autojoin-sync.yaml'));
  });

  it('uses the common directory of several paths', async () => {
    const cwd = await tree({
      '.git/HEAD': '',
      'org/autojoin-sync.yaml': 'defaults: { scopeType: workspace }\n',
      'org/a/x.autojoin.yaml': '',
      'org/b/y.autojoin.yaml': '',
    });
    expect(await findProjectFile(cwd, ['org/a', 'org/b/y.autojoin.yaml'])).toBe(path.join(cwd, 'org/autojoin-sync.yaml'));
    expect(await findProjectFile(cwd, ['org/a', '.'])).toBeNull();
  });
});
