/**
 * Reads git history for pruning: git history is the state, so a scope that a policy file declared
 * in any commit reachable from HEAD, and that no file in the working tree declares now, is one to
 * clear.
 *
 * A scope leaves the files only when a change replaces the version of the file that declared it:
 * a commit deletes or rewrites the file, changes the project file the version was read under
 * (`defaults.scopeType`, say), or the working tree does either without a commit. So the versions
 * worth reading are the "before" side of every such change. Every commit counts, on every side of
 * every merge: one `git log --full-history --sparse -m` lists them all (no history simplification,
 * which would skip one side of a merge) and compares each with each of its parents in turn, so a
 * merge that kept one side's version replaced the other side's. It streams, so the number of
 * commits costs time, not memory; one process, not a lister feeding a differ, because each process
 * a run starts costs it more than the history of a policy repository does.
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

/** One comparison of a commit with one parent (none for a root commit), as `git log` shows it. */
interface Pair {
  commit: string;
  parent: string | null;
  first: boolean;
  order: number;
  removedBy: RemovalCommit;
}

/**
 * Settings that would change what `git log`, a porcelain command, prints: a user's
 * `log.diffMerges` (what `-m` means), `diff.relative` (paths from the folder it runs in) or
 * `log.showSignature` (lines inside the header). A git that does not know a name ignores it.
 */
const PLAIN_LOG = ['-c', 'log.diffMerges=separate', '-c', 'diff.relative=false', '-c', 'log.showSignature=false'];

/**
 * Lists every commit reachable from HEAD, oldest first, with its diff against each parent in turn
 * (one `git log`), and folds the diffs into `walk`. `--full-history --sparse` show every commit,
 * also those that touch no policy path (with a header and no diff); `-m` shows a merge's diff against each parent
 * separately, under a `commit SHA (from PARENT)` line (a diff that is empty is left out, and a
 * parent whose diff is empty has the merge's policy files and project file).
 */
async function walkCommits(repository: Repository, pathspecs: string[], walk: Walk): Promise<void> {
  const folder = logFolder(walk);
  await startGit(
    [...PLAIN_LOG, 'log', '--reverse', '--topo-order', '--full-history', '--sparse', '-m', '--root', '--pretty=raw', '--no-color', '--raw', '-z', '--no-renames', '--no-abbrev', 'HEAD', '--', ...pathspecs],
    { cwd: repository.dir, context: CONTEXT, onData: folder.push },
  ).done;
  folder.finish();
}

/**
 * A push parser of `git log --pretty=raw --raw -z -m` output: per commit and parent a header
 * (`commit SHA[ (from PARENT)]`, `parent` and `committer` lines, the message indented by four
 * spaces), then per entry `:MODE MODE OLD NEW STATUS\0PATH\0`, the first entry in the header's
 * token. `finish` closes the last pair.
 */
function logFolder(walk: Walk): { push: (chunk: Buffer) => void; finish: () => void } {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let expectPath = false;
  let entry = '';
  let pair: Pair | undefined;
  let order = -1;
  const fold = (raw: string): void => {
    const token = raw.replace(/^\n/, '');
    if (expectPath && pair) {
      foldEntry(walk, pair, entry, raw);
      expectPath = false;
    } else if (token.startsWith('commit ')) {
      if (pair) finishPair(walk, pair);
      const header = parseHeader(token);
      if (header.commit !== pair?.commit) order += 1;
      pair = openPair(walk, header, order);
      if (header.entry !== undefined) [entry, expectPath] = [header.entry, true];
    } else if (token.startsWith(':')) [entry, expectPath] = [token, true];
  };
  const push = (chunk: Buffer): void => {
    const tokens = (pending + decoder.write(chunk)).split('\0');
    pending = tokens.pop() ?? '';
    tokens.forEach(fold);
  };
  // The last commit's header has no NUL after it when that commit shows no diff.
  const finish = (): void => {
    const last = pending + decoder.end();
    if (last !== '') fold(last);
    if (pair) finishPair(walk, pair);
  };
  return { push, finish };
}

/** One header of `git log --pretty=raw`: the commit, the parent its diff is against, and the first entry if the token holds one. */
interface Header {
  commit: string;
  parents: string[];
  from?: string;
  date: string;
  subject: string;
  entry?: string;
}

function parseHeader(token: string): Header {
  const lines = token.split('\n');
  const [, commit = '', from] = /^commit ([0-9a-f]+)(?: \(from ([0-9a-f]+)\))?$/u.exec(lines[0] ?? '') ?? [];
  if (commit === '') throw new GitRevisionError(`${CONTEXT}: git log printed a header it should not: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const parents: string[] = [];
  let date = '';
  let index = 1;
  for (; index < lines.length && lines[index] !== ''; index++) {
    const line = lines[index] as string;
    if (line.startsWith('parent ')) parents.push(line.slice('parent '.length));
    else if (line.startsWith('committer ')) date = strictIsoDate(line);
    else if (line.startsWith(':')) break;
  }
  const message: string[] = [];
  for (; index < lines.length && !(lines[index] as string).startsWith(':'); index++) message.push((lines[index] as string).replace(/^ {4}/u, ''));
  const entry = index < lines.length ? lines.slice(index).join('\n') : undefined;
  return { commit, parents, ...(from === undefined ? {} : { from }), date, subject: subjectOf(message), ...(entry === undefined ? {} : { entry }) };
}

/** git's subject (`%s`): the message's first paragraph, its lines joined by spaces. */
function subjectOf(message: readonly string[]): string {
  const lines = message.map((line) => line.trimEnd());
  const start = lines.findIndex((line) => line !== '');
  if (start === -1) return '';
  const end = lines.indexOf('', start);
  return lines.slice(start, end === -1 ? undefined : end).join(' ');
}

/** git's strict ISO 8601 committer date (`%cI`) from a raw `committer NAME <EMAIL> SECONDS ±HHMM` line. */
function strictIsoDate(line: string): string {
  const [, seconds = '0', sign = '+', hours = '00', minutes = '00'] = / (\d+) ([+-])(\d\d)(\d\d)$/u.exec(line) ?? [];
  const offset = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
  const local = new Date((Number(seconds) + offset * 60) * 1000).toISOString().slice(0, 19);
  return `${local}${sign}${hours}:${minutes}`;
}

/**
 * Starts a pair: the parent is the one `(from …)` names, else the first (a commit with one parent,
 * or a merge none of whose diffs shows). A commit's project file blobs start as its first parent's.
 */
function openPair(walk: Walk, header: Header, order: number): Pair {
  const firstParent = header.parents[0] ?? null;
  const parent = header.from ?? firstParent;
  if (header.from !== undefined && !header.parents.includes(header.from)) throw new GitRevisionError(`${CONTEXT}: git log named a parent the commit does not have`);
  if (!walk.projects.has(header.commit)) walk.projects.set(header.commit, firstParent === null ? [] : (walk.projects.get(firstParent) ?? []));
  walk.head = header.commit;
  return { commit: header.commit, parent, first: parent === firstParent, order, removedBy: { commit: header.commit.slice(0, SHORT_SHA), date: header.date, subject: header.subject } };
}

/** A commit whose project file differs from this parent's replaced the meaning of every policy file there. */
function finishPair(walk: Walk, pair: Pair): void {
  if (pair.parent === null) return;
  const before = governing(walk.projects.get(pair.parent));
  if (before !== governing(walk.projects.get(pair.commit))) walk.projectChanges.push({ parent: pair.parent, removedBy: pair.removedBy, order: pair.order });
}

/** Folds one raw entry `:MODE MODE OLD NEW STATUS` of `file` into the walk. */
function foldEntry(walk: Walk, pair: Pair, entry: string, file: string): void {
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
