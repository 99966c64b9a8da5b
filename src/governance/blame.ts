/**
 * `inventory --blame`: who last touched each line, from at most one `git blame --porcelain` per
 * file (never one per line), a few files at a time. Porcelain output gives each commit's author
 * and time once, at the commit's first line; later lines of the same commit carry only its id.
 *
 * Most policy files are written once and never edited; for those git blame can only answer the
 * commit that added them. One `git log` over the history finds them (added by one commit, touched
 * by no other, not even by a merge's own resolution, and unchanged in the working tree), and they
 * skip their blame: with thousands of files, a process per file is most of the time.
 */
import { posix } from 'node:path';
import { forEachBounded } from '../concurrency.js';
import { GitFailedError, runGit } from '../git/command.js';
import { hint, worded } from '../hint.js';
import type { BlameInfo } from './inventory-rows.js';

const NOT_COMMITTED = /^0{40,64}$/;

/** Who last touched each line of one file: `lines[n]` for 1-based line n. */
export type FileBlame = Map<number, BlameInfo>;

/**
 * @param files paths relative to `cwd`
 * @param concurrency git processes at once
 * @returns each file's blame
 * @throws Error naming the file when git cannot blame it (outside a repository, say)
 */
export async function blameFiles(files: readonly string[], cwd: string, concurrency = 4): Promise<Map<string, FileBlame | BlameInfo>> {
  const blamed = new Map<string, FileBlame | BlameInfo>();
  const history = await readHistory(cwd);
  const prefix = history === null ? '' : (await gitText(['rev-parse', '--show-prefix'], cwd)).trim();
  const inRepository = (file: string): string => posix.normalize(posix.join(prefix, file));
  const rest = files.filter((file) => {
    const whole = history?.once.get(inRepository(file));
    if (whole) blamed.set(file, whole);
    return !whole;
  });
  await forEachBounded(rest, concurrency, async (file) => {
    // A file unchanged in the working tree is blamed at HEAD: git then skips the index and the work tree (4× less).
    const clean = history !== null && !history.dirty.has(inRepository(file));
    blamed.set(file, parsePorcelain(await blameOne(file, cwd, clean)));
  });
  return blamed;
}

/** @returns the blame of `line` in a file's result: per line, or one commit for the whole file. */
export function blameOfLine(result: FileBlame | BlameInfo | undefined, line: number): BlameInfo | undefined {
  return result instanceof Map ? result.get(line) : result;
}

/**
 * @returns `once`: files (relative to the repository root) added by one commit and touched by no
 *   other commit (merges' own changes included: --cc) nor in the working tree, with that commit;
 *   `dirty`: files changed in the working tree; null when git cannot tell (outside a repository:
 *   each file's git blame then says why)
 */
async function readHistory(cwd: string): Promise<{ once: Map<string, BlameInfo>; dirty: Set<string> } | null> {
  let log: string;
  let status: string;
  try {
    log = await gitText(['log', '--cc', '--name-status', '-z', '--format=%x01%H%x02%aN%x02%at', 'HEAD'], cwd);
    status = await gitText(['status', '--porcelain=v1', '-z', '--untracked-files=all'], cwd);
  } catch {
    return null;
  }
  const touched = new Map<string, { count: number; added: BlameInfo | null }>();
  for (const record of log.split('\u0001').slice(1)) {
    const end = record.indexOf('\0');
    const [commit = '', author = '', time = '0'] = record.slice(0, end).split('\u0002');
    const info = { commit, author, date: new Date(Number(time) * 1000).toISOString() };
    const tokens = record.slice(end + 1).replace(/^\n/, '').split('\0');
    for (let i = 0; i < tokens.length; ) {
      const kind = tokens[i] ?? '';
      const paths = /^[RC]/.test(kind) ? tokens.slice(i + 1, i + 3) : tokens.slice(i + 1, i + 2);
      i += 1 + paths.length;
      for (const path of kind === '' ? [] : paths) {
        const seen = touched.get(path) ?? { count: 0, added: kind === 'A' ? info : null };
        touched.set(path, { count: seen.count + 1, added: seen.added });
      }
    }
  }
  const dirty = new Set(status.split('\0').map((entry) => entry.slice(3)));
  const once = new Map<string, BlameInfo>();
  for (const [path, seen] of touched) if (seen.count === 1 && seen.added && !dirty.has(path)) once.set(path, seen.added);
  return { once, dirty };
}

async function gitText(args: string[], cwd: string): Promise<string> {
  return (await runGit(args, { cwd, context: '--blame' })).toString('utf8');
}

async function blameOne(file: string, cwd: string, atHead: boolean): Promise<string> {
  try {
    return await gitText(['blame', '--porcelain', ...(atHead ? ['HEAD'] : []), '--', file], cwd);
  } catch (error) {
    const first = error instanceof GitFailedError ? error.detail : (error as Error).message;
    throw new Error(worded`${hint('blame')}: git blame ${file} failed: ${first} (${hint('blame')} needs the policy files in a git repository)`);
  }
}

/** @returns line → blame of `git blame --porcelain` output; lines not yet committed say so. */
export function parsePorcelain(output: string): FileBlame {
  const commits = new Map<string, { author: string; time: string }>();
  const lines: FileBlame = new Map();
  let current: { commit: string; line: number } | null = null;
  for (const text of output.split('\n')) {
    if (text.startsWith('\t')) {
      if (current) lines.set(current.line, blameOf(current.commit, commits.get(current.commit)));
      current = null;
    } else if (current === null) {
      const [commit, , final] = text.split(' ');
      if (commit && final) {
        current = { commit, line: Number(final) };
        if (!commits.has(commit)) commits.set(commit, { author: '', time: '' });
      }
    } else {
      const space = text.indexOf(' ');
      const key = text.slice(0, space);
      const info = commits.get(current.commit);
      if (info && key === 'author') info.author = text.slice(space + 1);
      if (info && key === 'author-time') info.time = new Date(Number(text.slice(space + 1)) * 1000).toISOString();
    }
  }
  return lines;
}

function blameOf(commit: string, info: { author: string; time: string } | undefined): BlameInfo {
  if (NOT_COMMITTED.test(commit)) return { commit: '', author: 'not committed yet', date: '' };
  return { commit, author: info?.author ?? '', date: info?.time ?? '' };
}
