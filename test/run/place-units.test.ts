/**
 * Edges of where a run's files are (src/run/place.ts) that test/policy/project-lookup.test.ts
 * leaves open: no path, a path that does not exist, a directory without policy files, the order
 * of projects, and `--project FILE`'s selection, refusals and notice. Real directories in temp dirs.
 */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateRun } from '../../src/run/place.js';
import { RunError } from '../../src/output/exit-codes.js';
import { tempDirOfTest } from '../support/temp.js';

const PROJECT = 'autojoin-sync.yaml';

/** A directory holding `files` (name → text), removed when the test ends. */
function tree(files: Record<string, string>): string {
  const root = realpathSync(tempDirOfTest('autojoin-place-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** Each project as [project file relative to `top` ('' for none), its dir relative to `top`, its files]. */
const summary = (top: string, projects: { projectFile?: string; dir: string; files: string[] }[]) =>
  projects.map((one) => [one.projectFile === undefined ? '' : path.relative(top, one.projectFile), path.relative(top, one.dir), one.files]);

describe('locateRun: paths', () => {
  it('takes no path for `.`', async () => {
    const top = tree({ '.git/HEAD': '', [PROJECT]: '{}\n', 'a.autojoin.yaml': '' });
    const place = await locateRun(top, []);
    expect(place).toEqual(await locateRun(top, ['.']));
    expect(place.paths).toEqual(['.']);
    expect(summary(top, place.projects)).toEqual([[PROJECT, '', ['a.autojoin.yaml']]]);
  });

  it('takes a path that does not exist for a file in its directory (reported later), under that directory\'s project file', async () => {
    const top = tree({ '.git/HEAD': '', [`p/${PROJECT}`]: '{}\n', 'p/a.autojoin.yaml': '' });
    const place = await locateRun(top, ['p/gone.autojoin.yaml']);
    expect(place.paths).toEqual(['p/gone.autojoin.yaml']);
    expect(summary(top, place.projects)).toEqual([[`p/${PROJECT}`, 'p', ['p/gone.autojoin.yaml']]]);
  });

  it('takes a directory without policy files for one file of its nearest project', async () => {
    const top = tree({ '.git/HEAD': '', [PROJECT]: '{}\n', 'empty/README.md': '' });
    const place = await locateRun(top, ['empty']);
    expect(summary(top, place.projects)).toEqual([[PROJECT, '', ['empty']]]);
    expect(place.projectFile).toBe(path.join(top, PROJECT));
  });

  it('names one root once, however many paths lie in it', async () => {
    const top = tree({ '.git/HEAD': '', 'a/x.autojoin.yaml': '', 'b/y.autojoin.yaml': '' });
    const place = await locateRun(top, ['a', 'b']);
    expect(place.roots).toEqual([top]);
    expect(summary(top, place.projects)).toEqual([['', '', ['a/x.autojoin.yaml', 'b/y.autojoin.yaml']]]);
    expect('projectFile' in place).toBe(false);
    expect('notice' in place).toBe(false);
  });
});

describe('locateRun: projects', () => {
  it('lists projects by project file, those without one last, whatever the order of the paths', async () => {
    const top = tree({
      '.git/HEAD': '',
      'loose/l.autojoin.yaml': '',
      [`b/${PROJECT}`]: '{}\n',
      'b/y.autojoin.yaml': '',
      [`a/${PROJECT}`]: '{}\n',
      'a/x.autojoin.yaml': '',
    });
    const expected = [[`a/${PROJECT}`, 'a', ['a/x.autojoin.yaml']], [`b/${PROJECT}`, 'b', ['b/y.autojoin.yaml']], ['', '', ['loose/l.autojoin.yaml']]];
    expect(summary(top, (await locateRun(top, ['loose', 'b', 'a'])).projects)).toEqual(expected);
    expect(summary(top, (await locateRun(top, ['a', 'loose', 'b'])).projects)).toEqual(expected);
    expect(summary(top, (await locateRun(top, ['.'])).projects)).toEqual(expected);
  });

  it('orders projects by their project file\'s path, not their directory\'s', async () => {
    // As directories x comes first; as files x-y/… does ('-' sorts before '/').
    const top = tree({ '.git/HEAD': '', [`x/${PROJECT}`]: '{}\n', 'x/a.autojoin.yaml': '', [`x-y/${PROJECT}`]: '{}\n', 'x-y/b.autojoin.yaml': '' });
    const expected = [`x-y/${PROJECT}`, `x/${PROJECT}`];
    expect((await locateRun(top, ['x', 'x-y'])).projects.map((one) => path.relative(top, one.projectFile ?? ''))).toEqual(expected);
    expect((await locateRun(top, ['x-y', 'x'])).projects.map((one) => path.relative(top, one.projectFile ?? ''))).toEqual(expected);
  });

  it('outside git, takes a path that does not exist for a file in its directory, which holds the project file and the state', async () => {
    const top = tree({ [`p/${PROJECT}`]: '{}\n' });
    const place = await locateRun(top, ['p/gone.autojoin.yaml']);
    expect(place.projectFile).toBe(path.join(top, `p/${PROJECT}`));
    expect(place.roots).toEqual([path.join(top, 'p')]);
    expect(place.stateDir).toBe(path.join(top, 'p/.autojoin-sync'));
  });

  it('finds the project file of a policy file nested several levels below it, up to the repository root', async () => {
    const top = tree({ '.git/HEAD': '', [PROJECT]: '{}\n', 'deep/er/still/x.autojoin.yaml': '' });
    expect(summary(top, (await locateRun(top, ['deep'])).projects)).toEqual([[PROJECT, '', ['deep/er/still/x.autojoin.yaml']]]);
  });
});

describe('locateRun: --project FILE', () => {
  const monorepo = () =>
    tree({
      '.git/HEAD': '',
      [`a/${PROJECT}`]: '{}\n',
      'a/x.autojoin.yaml': '',
      'a/sub/w.autojoin.yaml': '',
      [`b/${PROJECT}`]: '{}\n',
      'b/y.autojoin.yaml': '',
      'b/z.autojoin.yaml': '',
      'loose/l.autojoin.yaml': '',
    });

  it('selects its project, narrows a path that mixes projects to its directory, and counts the files it skips', async () => {
    const top = monorepo();
    const place = await locateRun(top, ['.'], `a/${PROJECT}`);
    expect(place.paths).toEqual(['a']);
    expect(place.projectFile).toBe(path.join(top, `a/${PROJECT}`));
    expect(summary(top, place.projects)).toEqual([[`a/${PROJECT}`, 'a', ['a/sub/w.autojoin.yaml', 'a/x.autojoin.yaml']]]);
    expect(place.notice).toBe(`--project a/${PROJECT}: 3 policy files of other projects skipped`);
  });

  it('keeps a path of its own files as given, leaves out a path of other projects\' files, and says one skipped file so', async () => {
    const top = tree({ '.git/HEAD': '', [`a/${PROJECT}`]: '{}\n', 'a/x.autojoin.yaml': '', 'loose/l.autojoin.yaml': '' });
    const place = await locateRun(top, ['a/x.autojoin.yaml', 'loose', 'a'], `a/${PROJECT}`);
    expect(place.paths).toEqual(['a/x.autojoin.yaml', 'a']);
    expect(place.notice).toBe(`--project a/${PROJECT}: 1 policy file of other projects skipped`);
  });

  it('keeps a path below its directory that holds only its files as given', async () => {
    const top = monorepo();
    expect((await locateRun(top, ['a/sub'], `a/${PROJECT}`)).paths).toEqual(['a/sub']);
  });

  it('outside git, leaves out a named directory of no project that holds its directory', async () => {
    const top = tree({ 'x.autojoin.yaml': '', [`sub/${PROJECT}`]: '{}\n', 'sub/y.autojoin.yaml': '' });
    const place = await locateRun(top, ['.', 'sub'], `sub/${PROJECT}`);
    expect(place.paths).toEqual(['sub']);
  });

  it('gives no notice when it skips nothing', async () => {
    const top = monorepo();
    const place = await locateRun(top, ['a'], `a/${PROJECT}`);
    expect(place.paths).toEqual(['a']);
    expect(place.notice).toBeUndefined();
    expect('notice' in place).toBe(false);
  });

  it('names its own files, not its directory, when another project lies inside that directory', async () => {
    const top = tree({
      '.git/HEAD': '',
      [PROJECT]: '{}\n',
      'x.autojoin.yaml': '',
      [`nested/${PROJECT}`]: '{}\n',
      'nested/y.autojoin.yaml': '',
    });
    const place = await locateRun(top, ['.'], PROJECT);
    expect(place.paths).toEqual(['x.autojoin.yaml']);
    expect(summary(top, place.projects)).toEqual([[PROJECT, '', ['x.autojoin.yaml']]]);
  });

  it('names its own files when the mixed path lies inside its directory rather than holding it', async () => {
    const top = tree({ '.git/HEAD': '', [PROJECT]: '{}\n', 'd/x.autojoin.yaml': '', [`d/nested/${PROJECT}`]: '{}\n', 'd/nested/y.autojoin.yaml': '' });
    const place = await locateRun(top, ['d'], PROJECT);
    expect(place.paths).toEqual(['d/x.autojoin.yaml']);
  });

  it('names a directory once, however many paths narrow to it', async () => {
    const top = monorepo();
    const place = await locateRun(top, ['.', 'a/..'], `a/${PROJECT}`);
    expect(place.paths).toEqual(['a']);
  });

  it('refuses a file that does not exist, and one no policy file under the paths has as its nearest', async () => {
    const top = monorepo();
    await expect(locateRun(top, ['.'], 'c/autojoin-sync.yaml')).rejects.toThrow(new RunError('--project c/autojoin-sync.yaml: no such file'));
    await expect(locateRun(top, ['a', 'loose'], `b/${PROJECT}`)).rejects.toThrow(
      new RunError(`--project b/${PROJECT}: no policy file under a loose has it as its nearest project file (theirs: a/${PROJECT}, none); nothing was read`),
    );
    await expect(locateRun(top, ['a'], `b/${PROJECT}`)).rejects.toBeInstanceOf(RunError);
    // No path is `.`, named so.
    await expect(locateRun(path.join(top, 'a'), [], `../b/${PROJECT}`)).rejects.toThrow(/no policy file under \. has it/u);
  });
});
