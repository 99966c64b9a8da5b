/**
 * The history walk reads one `git log` (src/history/walk.ts), a porcelain command: what it finds
 * must not depend on the user's git configuration, and the commit it names for a removal must be
 * git's own (`%cI`, `%s`) whatever the message and time zone. Real repositories in temp dirs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPruned, type PruneContext } from '../../src/history/prune.js';
import type { ScopeKey } from '../../src/scope.js';
import { writeFiles } from '../support/temp.js';
import { commitChanges, git, gitSteps } from '../support/git.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const policy = (scope: string): string => `scope: ${scope}\nscopeType: team\ncomponentId: c1\ndomains:\n  - ${scope}.example.com\n`;


function newRepo(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'walk-log-'));
  dirs.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  return dir;
}

/** What pruning finds from `cwd`: each key with the commit that removed it, and the history walked. */
async function pruned(cwd: string, declared: ScopeKey[]): Promise<{ found: { key: string; removedBy: unknown }[]; walked?: { has: (commit: string) => boolean } }> {
  const context: PruneContext = { paths: ['.'], cwd, project: {} };
  const result = await findPruned({ history: true }, context, new Set(declared));
  const found = result.pruned.map((entry) => ({ key: entry.key, removedBy: entry.removedBy })).sort((a, b) => a.key.localeCompare(b.key));
  return { found, ...(result.walked ? { walked: result.walked } : {}) };
}

/**
 * A history with every shape the walk folds, each found only when git log is asked as it must be:
 *  - a project file in the first commit, read for a file deleted later (`--root`);
 *  - a merge whose conflict kept main's version of a file: the branch's version was replaced by
 *    the merge, seen only in its diff against the branch (`-m`);
 *  - a file renamed and edited: the old version is replaced (`--no-renames`);
 *  - a branch merged with `-s ours`: the merge is the same as main, and only every parent
 *    followed sees the branch's file (`--full-history`);
 *  - a commit that touches no policy path, still part of the history walked (`--sparse`).
 * @returns the repository, that last commit, and the commit only the `-s ours` merge reaches
 */
function richHistory(): { dir: string; docsOnly: string; sideOnly: string } {
  const dir = newRepo();
  writeFiles(dir, {
    'teams/autojoin-sync.yaml': 'defaults:\n  scopeType: team\n',
    'teams/r.autojoin.yaml': 'scope: r\ncomponentId: c1\ndomains:\n  - r.example.com\n',
    'teams/a.autojoin.yaml': policy('a'),
    'teams/b.autojoin.yaml': policy('b'),
    'teams/c.autojoin.yaml': policy('c'),
    'teams/d.autojoin.yaml': policy('d'),
    'README.md': 'x\n',
  });
  commitChanges(dir, 'start');
  gitSteps(dir, ['checkout', '-q', '-b', 'side']);
  writeFiles(dir, { 'teams/b.autojoin.yaml': null, 'teams/c.autojoin.yaml': policy('cs') });
  commitChanges(dir, 'side drops b, c becomes cs');
  gitSteps(dir, ['checkout', '-q', 'main']);
  writeFiles(dir, { 'teams/c.autojoin.yaml': policy('cm'), 'teams/r.autojoin.yaml': null, 'README.md': 'y\n' });
  commitChanges(dir, 'main: c becomes cm, drops r');
  gitSteps(dir, ['merge', '-q', '-X', 'ours', '-m', 'merge side, keeping cm', 'side']);
  gitSteps(dir, ['mv', 'teams/d.autojoin.yaml', 'teams/e.autojoin.yaml']);
  writeFiles(dir, { 'teams/e.autojoin.yaml': policy('e') });
  commitChanges(dir, 'd moves to e');
  gitSteps(dir, ['checkout', '-q', '-b', 'old']);
  writeFiles(dir, { 'teams/x.autojoin.yaml': policy('x') });
  const sideOnly = commitChanges(dir, 'old adds x');
  gitSteps(dir, ['checkout', '-q', 'main'], ['merge', '-q', '-s', 'ours', '-m', 'merge old, keeping nothing of it', 'old']);
  writeFiles(dir, { 'teams/a.autojoin.yaml': null });
  commitChanges(dir, 'drop a');
  writeFiles(dir, { 'README.md': 'z\n' });
  return { dir, docsOnly: commitChanges(dir, 'docs only'), sideOnly };
}

const REMOVED = ['team/a', 'team/b', 'team/c', 'team/cs', 'team/d', 'team/r', 'team/x'];

describe('the walk, one git log', () => {
  it('finds every version a commit replaced, on each side of each merge, and walks every commit', async () => {
    const { dir, docsOnly, sideOnly } = richHistory();
    const { found, walked } = await pruned(path.join(dir, 'teams'), ['team/cm', 'team/e']);
    expect(found.map((entry) => entry.key)).toEqual(REMOVED);
    expect(walked?.has(docsOnly)).toBe(true);
    expect(walked?.has(sideOnly)).toBe(true);
  });

  it("finds the same under a user's git configuration that changes what git log prints", async () => {
    const { dir, docsOnly } = richHistory();
    const teams = path.join(dir, 'teams');
    const expected = (await pruned(teams, ['team/cm', 'team/e'])).found;
    // Each changes git log's output: a first-parent diff of merges, paths relative to the folder,
    // colour, no diff for the first commit, rename detection, short ids, the signature check, and
    // settings raw output ignores (decorations, notes, short commit ids, another format).
    const hostile: [string, string][] = [
      ['log.diffMerges', 'first-parent'],
      ['diff.relative', 'true'],
      ['color.ui', 'always'],
      ['color.diff', 'always'],
      ['log.showRoot', 'false'],
      ['diff.renames', 'copies'],
      ['core.abbrev', '7'],
      ['log.showSignature', 'true'],
      ['log.decorate', 'full'],
      ['log.abbrevCommit', 'true'],
      ['format.pretty', 'oneline'],
      ['notes.displayRef', 'refs/notes/*'],
    ];
    for (const [name, value] of hostile) git(dir, 'config', name, value);
    gitSteps(dir, ['notes', 'add', '-m', 'commit 0000000000000000000000000000000000000000 (from x)', 'HEAD'], ['notes', 'add', '-m', ':000000 100644 x y D', 'HEAD~1']);
    const { found, walked } = await pruned(teams, ['team/cm', 'team/e']);
    expect(found).toEqual(expected);
    expect(expected.map((entry) => entry.key)).toEqual(REMOVED);
    expect(walked?.has(docsOnly)).toBe(true);
  });

  it('reads each commit after its parents, also when a clock put a commit before its parent', async () => {
    const dir = newRepo();
    const at = (seconds: number): NodeJS.ProcessEnv => ({ ...process.env, GIT_COMMITTER_DATE: `${seconds} +0000`, GIT_AUTHOR_DATE: `${seconds} +0000` });
    const gitAt = (seconds: number, ...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, env: at(seconds) });
    };
    // r is read under the project file of the first commit (its scopeType comes from there).
    writeFiles(dir, { 'autojoin-sync.yaml': 'defaults:\n  scopeType: team\n', 'r.autojoin.yaml': 'scope: r\ncomponentId: c1\ndomains:\n  - r.example.com\n', 'a.autojoin.yaml': policy('a') });
    git(dir, 'add', '-A', '.');
    gitAt(1_772_000_000, 'commit', '-q', '-m', 'start');
    gitSteps(dir, ['checkout', '-q', '-b', 'side']);
    writeFiles(dir, { 'r.autojoin.yaml': null });
    git(dir, 'add', '-A', '.');
    // A day older than its parent: by date alone, git lists it before the first commit.
    gitAt(1_771_913_600, 'commit', '-q', '-m', 'drop r, on a clock a day behind');
    gitSteps(dir, ['checkout', '-q', 'main']);
    gitAt(1_772_100_000, 'merge', '-q', '--no-ff', '-m', 'merge side', 'side');
    expect((await pruned(dir, ['team/a'])).found.map((entry) => entry.key)).toEqual(['team/r']);
  });

  it.each([
    ['a subject over two lines, after blank lines, with trailing spaces and a body', '\n\n  first line  \nsecond line\t\n\nbody\n:000000 100644 line that looks like an entry\n', '-0530'],
    ['no message at all', '', '+0545'],
    ['a message of one line', 'drop b', '+0000'],
  ])("names the removing commit with git's own date and subject: %s", async (_name, message, zone) => {
    const dir = newRepo();
    writeFiles(dir, { 'a.autojoin.yaml': policy('a'), 'b.autojoin.yaml': policy('b') });
    commitChanges(dir, 'start');
    writeFiles(dir, { 'b.autojoin.yaml': null });
    // commit-tree keeps the message as given (no clean-up), at a fixed time in the zone.
    const env = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_COMMITTER_DATE: `1772000000 ${zone}` };
    const tree = gitSteps(dir, ['add', '-A', '.'], ['write-tree']);
    const commit = execFileSync('git', ['commit-tree', tree, '-p', 'HEAD'], { cwd: dir, env, input: message, encoding: 'utf8' }).trim();
    git(dir, 'update-ref', 'HEAD', commit);
    const [date, subject] = git(dir, 'log', '-1', '--format=%cI%x00%s', commit).split('\0');
    expect((await pruned(dir, ['team/a'])).found).toEqual([{ key: 'team/b', removedBy: { commit: commit.slice(0, 12), date, subject: subject ?? '' } }]);
  });
});
