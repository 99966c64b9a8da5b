/**
 * Which autojoin-sync.yaml governs a run, where its files are contained and where its embedded
 * state lives: all found from the policy paths, never from the working directory (src/run/place.ts).
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { locateRun } from '../../src/run/place.js';
import { resolveSettings } from '../../src/run/settings.js';

let root: string;
afterEach(() => rm(root, { recursive: true, force: true }));

async function tree(files: Record<string, string>): Promise<string> {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'autojoin-project-')));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
  return root;
}

describe('locateRun', () => {
  it('takes the one beside the policy directory, from the repository, a subdirectory or outside it alike', async () => {
    const top = await tree({
      'repo/.git/HEAD': '',
      'repo/autojoin-sync.yaml': 'defaults: { componentId: cmp_root }\n',
      'repo/examples/autojoin-sync.yaml': 'defaults: { componentId: cmp_examples }\n',
      'repo/examples/policies/a.autojoin.yaml': '',
      'elsewhere/.git/HEAD': '',
    });
    const repo = path.join(top, 'repo');
    const projectFile = path.join(repo, 'examples/autojoin-sync.yaml');
    // One state per run, at the repository root, whatever the project file (release 5).
    const expected = { base: repo, paths: ['examples/policies'], roots: [repo], projectFile, stateDir: path.join(repo, '.autojoin-sync') };
    const withoutFiles = async (cwd: string, paths: string[]) => {
      const { projects, ...place } = await locateRun(cwd, paths);
      expect(projects.map((one) => [one.projectFile, one.dir])).toEqual([[projectFile, path.dirname(projectFile)]]);
      return place;
    };
    expect(await withoutFiles(repo, ['examples/policies'])).toEqual(expected);
    expect(await withoutFiles(path.join(repo, 'examples'), ['policies'])).toEqual(expected);
    expect(await withoutFiles(path.join(top, 'elsewhere'), [path.join(repo, 'examples/policies')])).toEqual(expected);
    expect(await withoutFiles(path.join(repo, 'examples/policies'), ['.'])).toEqual(expected);
    expect((await locateRun(repo, ['examples/policies/a.autojoin.yaml'])).projectFile).toBe(expected.projectFile);
  });

  it('never climbs above the repository root, and never looks in the working directory', async () => {
    const top = await tree({
      'autojoin-sync.yaml': 'defaults: { componentId: cmp_outside }\n',
      'repo/.git/HEAD': '',
      'repo/policies/a.autojoin.yaml': '',
    });
    const repo = path.join(top, 'repo');
    expect((await locateRun(repo, ['policies'])).projectFile).toBeUndefined();
    expect((await locateRun(top, ['repo/policies'])).projectFile).toBeUndefined();
    expect((await locateRun(top, ['repo/policies'])).stateDir).toBe(path.join(repo, '.autojoin-sync'));
  });

  it('outside git, looks in the named directory only, which is also the root and holds the state; names files from cwd', async () => {
    const top = await tree({
      'autojoin-sync.yaml': 'defaults: { componentId: cmp_parent }\n',
      'policies/autojoin-sync.yaml': 'defaults: { componentId: cmp_here }\n',
      'policies/a.autojoin.yaml': '',
      'loose/b.autojoin.yaml': '',
    });
    const here = path.join(top, 'policies');
    expect(await locateRun(top, ['policies'])).toEqual({
      base: top,
      paths: ['policies'],
      roots: [here],
      projectFile: path.join(here, 'autojoin-sync.yaml'),
      projects: [{ projectFile: path.join(here, 'autojoin-sync.yaml'), dir: here, files: ['policies'] }],
      stateDir: path.join(here, '.autojoin-sync'),
    });
    const loose = path.join(top, 'loose');
    expect(await locateRun(top, ['loose/b.autojoin.yaml'])).toEqual({
      base: top,
      paths: ['loose/b.autojoin.yaml'],
      roots: [loose],
      projects: [{ dir: loose, files: ['loose/b.autojoin.yaml'] }],
      stateDir: path.join(loose, '.autojoin-sync'),
    });
  });

  it('uses one project file for several paths, and makes paths that use two a run of two projects', async () => {
    const top = await tree({
      '.git/HEAD': '',
      'org/autojoin-sync.yaml': 'defaults: { scopeType: workspace }\n',
      'org/a/x.autojoin.yaml': '',
      'org/b/y.autojoin.yaml': '',
      'other/autojoin-sync.yaml': '{}\n',
      'other/z.autojoin.yaml': '',
    });
    expect((await locateRun(top, ['org/a', 'org/b/y.autojoin.yaml'])).projectFile).toBe(path.join(top, 'org/autojoin-sync.yaml'));
    const two = await locateRun(top, ['org/a', 'other']);
    expect(two.projectFile).toBeUndefined();
    expect(two.projects).toEqual([
      { projectFile: path.join(top, 'org/autojoin-sync.yaml'), dir: path.join(top, 'org'), files: ['org/a/x.autojoin.yaml'] },
      { projectFile: path.join(top, 'other/autojoin-sync.yaml'), dir: path.join(top, 'other'), files: ['other/z.autojoin.yaml'] },
    ]);
    // Under `.` every policy file has a project file of its own (a file named twice, once a project).
    const all = await locateRun(top, ['org/a', '.']);
    expect(all.projects.map((one) => [path.relative(top, one.projectFile ?? ''), [...new Set(one.files)].length])).toEqual([['org/autojoin-sync.yaml', 2], ['other/autojoin-sync.yaml', 1]]);
  });

  it('contains the reads of each path in its own repository', async () => {
    const top = await tree({ 'one/.git/HEAD': '', 'one/a.autojoin.yaml': '', 'two/.git/HEAD': '', 'two/b.autojoin.yaml': '' });
    const place = await locateRun(path.join(top, 'one'), ['.', '../two']);
    expect(place.roots).toEqual([path.join(top, 'one'), path.join(top, 'two')]);
    expect(place.paths).toEqual(['.', '../two']);
  });
});

describe('resolveSettings', () => {
  it('reports an invalid project file once and stops before anything else is read', async () => {
    const top = await tree({ '.git/HEAD': '', 'autojoin-sync.yaml': 'prune:\n  keep: ["eng-api"]\n', 'p/a.autojoin.yaml': 'scope: a\n' });
    const reported: string[] = [];
    const settings = resolveSettings({ cwd: top, paths: ['p'], flags: {}, env: {}, report: (diagnostics) => reported.push(...diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`)) });
    await expect(settings).rejects.toThrow('autojoin-sync.yaml is invalid (see above); nothing else was checked');
    expect(reported).toEqual(['autojoin-sync.yaml:2:10: prune.keep[0]: must be TYPE/ID (a scope type, "/", then a scope id), got "eng-api"']);
  });

  it('reports a value that fits none of a key\'s forms once, not once per form', async () => {
    const top = await tree({ '.git/HEAD': '', 'autojoin-sync.yaml': 'prune: "yes"\n', 'p/a.autojoin.yaml': 'scope: a\n' });
    const reported: string[] = [];
    await expect(resolveSettings({ cwd: top, paths: ['p'], flags: {}, env: {}, report: (diagnostics) => reported.push(...diagnostics.map((d) => d.message)) })).rejects.toThrow();
    expect(reported).toEqual(['prune: expected true or false, got a string']);
  });
});
