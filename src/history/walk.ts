/**
 * Reads git history for pruning: git history is the state, so a scope that a policy file declared
 * in any commit reachable from HEAD, and that no file in the working tree declares now, is one to
 * clear.
 *
 * A scope leaves the files only when a change replaces the version of the file that declared it:
 * a commit deletes or rewrites the file, changes the project file the version was read under
 * (`defaults.scopeType`, say), or the working tree does either without a commit. So the versions
 * worth reading are the "before" side of every such change. Every commit counts, on every side of
 * every merge: `rev-list --topo-order` lists them all (no history simplification, which would skip
 * one side of a merge), and one `diff-tree --stdin` compares each commit with each of its parents
 * in turn, so a merge that kept one side's version replaced the other side's. Both stream, so the
 * number of commits costs time, not memory.
 */
import { existsSync } from 'node:fs';
import path, { posix } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { RemovalCommit } from '../plan/types.js';
import { hint, worded } from '../hint.js';
import { GitRevisionError, runGit, SHORT_SHA, startGit } from '../git/command.js';
import { topPathspec, type Repository } from '../git/repository.js';
import type { WalkedHistory } from '../git/ancestry.js';
import { governing, historyPolicyRule, REGULAR_FILE, versionsAt, workingTreeRemoval, type HistoryPaths, type PastVersion } from './policy-tree.js';

const CONTEXT = 'pruning';

/**
 * Hands over every version of a policy file that a commit reachable from HEAD, or the working
 * tree, replaced, as the walk finds them (oldest commit first, the working tree last).
 * @returns the commits walked: HEAD and every ancestor (undefined before a first commit), which
 *   answer the ancestry of the run's markers without another walk (src/git/ancestry.ts)
 * @throws GitRevisionError in a shallow clone (its history is cut short) or when git fails
 */
export async function readReplacedVersions(repository: Repository, paths: HistoryPaths, onVersion: (version: PastVersion) => void): Promise<WalkedHistory | undefined> {
  if (repository.shallow) {
    throw new GitRevisionError(
      'pruning reads the whole git history, but this is a shallow clone: scopes deleted before its first commit would be missed. ' +
        worded`Fetch the full history (\`fetch-depth: 0\` for actions/checkout, or \`git fetch --unshallow\`), or turn pruning off with ${hint('prune', false)}.`,
    );
  }
  // A repository without a first commit has no history, so nothing to prune yet.
  if (repository.head === null) return undefined;
  const walk = createWalk(paths, onVersion);
  const pathspecs = [...paths.given, ...paths.projectFiles].map(topPathspec);
  // The working tree's comparison with HEAD runs while the history is walked.
  const [, worktree] = await Promise.all([
    walkCommits(repository, pathspecs, walk),
    runGit(['diff-index', '-z', '-r', '--no-renames', '--no-abbrev', repository.head, '--', ...pathspecs], { cwd: repository.dir, context: CONTEXT }),
  ]);
  walkWorkingTree(repository, paths, worktree, walk);
  for (const change of walk.projectChanges) (await versionsAt(repository, change.parent, paths, { ...change, context: CONTEXT })).forEach(onVersion);
  // Every commit listed has its project files recorded, so the map's keys are HEAD's whole history.
  return { head: repository.head, has: (commit) => walk.projects.has(commit) };
}

/** A commit (or the working tree) whose project file differs from its parent's: the parent's files read anew. */
interface ProjectChange {
  parent: string;
  removedBy: RemovalCommit;
  order: number;
}

/** The state of the walk: project file blobs per commit, and what was found. */
interface Walk {
  isPolicy: (file: string) => boolean;
  projectIndex: Map<string, number>;
  /** Per commit, the blob of each project file location (undefined: absent); shared while unchanged. */
  projects: Map<string, readonly (string | undefined)[]>;
  onVersion: (version: PastVersion) => void;
  projectChanges: ProjectChange[];
  /** The last commit walked: HEAD (undefined in a repository without commits). */
  head?: string;
}

function createWalk(paths: HistoryPaths, onVersion: (version: PastVersion) => void): Walk {
  return {
    isPolicy: historyPolicyRule(paths),
    projectIndex: new Map(paths.projectFiles.map((file, index) => [file, index])),
    projects: new Map(),
    onVersion,
    projectChanges: [],
  };
}

/** One comparison of a commit with one parent (none for a root commit), as fed to diff-tree. */
interface Pair {
  commit: string;
  parent: string | null;
  first: boolean;
  order: number;
}

/** Streams `rev-list` into `diff-tree --stdin`, one line per commit and parent, and folds the diffs into `walk`. */
async function walkCommits(repository: Repository, pathspecs: string[], walk: Walk): Promise<void> {
  const options = { cwd: repository.dir, context: CONTEXT };
  const pairs: Pair[] = [];
  const folder = diffFolder(walk, () => pairs.shift());
  const diff = startGit(['diff-tree', '--stdin', '--root', '--always', '-r', '-z', '--no-renames', '--no-abbrev', '--format=%x01%H%x00%cI%x00%s', '--', ...pathspecs], {
    ...options,
    onData: folder.push,
  });
  let order = 0;
  let pending = '';
  let writing = Promise.resolve();
  const list = startGit(['rev-list', '--reverse', '--topo-order', '--parents', 'HEAD'], {
    ...options,
    onData: (chunk) => {
      const lines = (pending + chunk.toString('latin1')).split('\n');
      pending = lines.pop() ?? '';
      const input = lines.map((line) => pairsOf(line, order++, pairs)).join('');
      writing = writing.then(() => diff.write(input));
    },
  });
  const listed = list.done.finally(() => writing.then(() => diff.end()));
  await Promise.all([listed, diff.done]);
  folder.finish();
}

/** Queues the pairs of one `rev-list --parents` line and returns them as diff-tree input. */
function pairsOf(line: string, order: number, pairs: Pair[]): string {
  const [commit = '', ...parents] = line.split(' ');
  if (parents.length === 0) {
    pairs.push({ commit, parent: null, first: true, order });
    return `${commit}\n`;
  }
  return parents
    .map((parent, index) => {
      pairs.push({ commit, parent, first: index === 0, order });
      return `${commit} ${parent}\n`;
    })
    .join('');
}

type OpenPair = Pair & { removedBy: RemovalCommit };

/**
 * A push parser of `diff-tree -z --format=%x01%H%x00%cI%x00%s` output: per pair a header
 * `\x01SHA\0DATE\0SUBJECT\0`, then per entry `[\n]:MODE MODE OLD NEW STATUS\0PATH\0`.
 * `finish` closes the last pair.
 */
function diffFolder(walk: Walk, nextPair: () => Pair | undefined): { push: (chunk: Buffer) => void; finish: () => void } {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let expect: 'any' | 'date' | 'subject' | 'path' = 'any';
  let entry = '';
  let pair: OpenPair | undefined;
  const push = (chunk: Buffer): void => {
    const tokens = (pending + decoder.write(chunk)).split('\0');
    pending = tokens.pop() ?? '';
    for (const raw of tokens) {
      if (expect === 'date' && pair) [pair.removedBy.date, expect] = [raw, 'subject'];
      else if (expect === 'subject' && pair) [pair.removedBy.subject, expect] = [raw, 'any'];
      else if (expect === 'path' && pair) [expect] = [foldEntry(walk, pair, entry, raw)];
      else if (raw.startsWith('\x01')) {
        if (pair) finishPair(walk, pair);
        pair = openPair(walk, nextPair(), raw.slice(1));
        expect = 'date';
      } else if (raw.replace(/^\n/, '').startsWith(':')) [entry, expect] = [raw.replace(/^\n/, ''), 'path'];
    }
  };
  return { push, finish: () => pair && finishPair(walk, pair) };
}

/** Starts a pair: a commit's project file blobs start as its first parent's (none for a root commit). */
function openPair(walk: Walk, next: Pair | undefined, commit: string): OpenPair {
  if (next?.commit !== commit) throw new GitRevisionError(`${CONTEXT}: git diff-tree answered out of order`);
  if (next.first) walk.projects.set(next.commit, next.parent === null ? [] : (walk.projects.get(next.parent) ?? []));
  walk.head = next.commit;
  return { ...next, removedBy: { commit: next.commit.slice(0, SHORT_SHA), date: '', subject: '' } };
}

/** A commit whose project file differs from this parent's replaced the meaning of every policy file there. */
function finishPair(walk: Walk, pair: OpenPair): void {
  if (pair.parent === null) return;
  const before = governing(walk.projects.get(pair.parent));
  if (before !== governing(walk.projects.get(pair.commit))) walk.projectChanges.push({ parent: pair.parent, removedBy: pair.removedBy, order: pair.order });
}

/** Folds one raw entry `:MODE MODE OLD NEW STATUS` of `file` into the walk. */
function foldEntry(walk: Walk, pair: OpenPair, entry: string, file: string): 'any' {
  const [oldMode = '', newMode = '', oldBlob = '', newBlob = '', status = ''] = entry.slice(1).split(' ');
  const projectAt = walk.projectIndex.get(file);
  if (projectAt !== undefined) {
    if (pair.first) {
      const blobs = [...(walk.projects.get(pair.commit) ?? [])];
      blobs[projectAt] = REGULAR_FILE.test(newMode) ? newBlob : undefined;
      walk.projects.set(pair.commit, blobs);
    }
  } else if (pair.parent !== null && /^[DMT]/.test(status) && REGULAR_FILE.test(oldMode) && walk.isPolicy(file)) {
    walk.onVersion({ file, blob: oldBlob, project: governing(walk.projects.get(pair.parent)), removedBy: pair.removedBy, order: pair.order });
  }
  return 'any';
}

/**
 * The working tree against HEAD (`diff-index` output, staged or not): the HEAD version of every policy
 * file deleted or edited and not committed, and of every file when the project file in force
 * changed (edited, deleted, or a nearer one not yet added).
 */
function walkWorkingTree(repository: Repository, paths: HistoryPaths, output: Buffer, walk: Walk): void {
  walk.head = repository.head ?? undefined;
  if (walk.head === undefined) return;
  const order = Number.MAX_SAFE_INTEGER;
  const removedBy = workingTreeRemoval();
  const head = walk.projects.get(walk.head) ?? [];
  const now = [...head];
  const tokens = output.toString('utf8').split('\0');
  for (let index = 0; index + 1 < tokens.length; index += 2) {
    const [oldMode = '', newMode = '', oldBlob = '', , status = ''] = (tokens[index] as string).replace(/^\n/, '').slice(1).split(' ');
    const file = tokens[index + 1] as string;
    const projectAt = walk.projectIndex.get(file);
    if (projectAt !== undefined) now[projectAt] = status.startsWith('D') || !REGULAR_FILE.test(newMode) ? undefined : `working tree ${file}`;
    else if (/^[DMT]/.test(status) && REGULAR_FILE.test(oldMode) && walk.isPolicy(file)) walk.onVersion({ file, blob: oldBlob, project: governing(head), removedBy, order });
  }
  for (const [index, file] of paths.projectFiles.entries()) {
    if (now[index] === undefined && existsSync(path.join(repository.dir, posix.relative(repository.prefix || '.', file)))) now[index] = `working tree ${file}`;
  }
  if (governing(now) !== governing(head)) walk.projectChanges.push({ parent: walk.head, removedBy, order });
}
