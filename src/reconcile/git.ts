/**
 * Reads policy files as they were at a git revision, for `--prune-from GITREV`.
 * `git ls-tree` lists the files under the given paths, relative to cwd as the loader reports
 * them (so this works from a subdirectory too); their blobs are read by id.
 */
import { execFile } from 'node:child_process';
import { posix } from 'node:path';
import { promisify } from 'node:util';
import type { PolicySource } from '../policy/types.js';
import { isPolicyFileName } from '../policy/discover.js';
import { GitRevisionError } from './errors.js';

const run = promisify(execFile);
const MAX_OUTPUT = 64 * 1024 * 1024;

/** @returns true for a revision that names no commit, like GitHub's `before` of a new branch (all zeros). */
export function isNullRevision(rev: string): boolean {
  return /^0+$/.test(rev);
}

/**
 * Reads every policy file under `paths` at revision `rev` with two git processes, whatever the
 * number of files: `ls-tree` for names and blob ids, one `cat-file --batch` for the contents.
 * @param paths files or directories relative to `cwd` (default: cwd itself)
 * @returns the files' texts, named by their path relative to cwd, sorted by name
 */
export async function readPolicySourcesAt(rev: string, paths: readonly string[], cwd: string): Promise<PolicySource[]> {
  if (rev.startsWith('-')) throw new GitRevisionError(`--prune-from: "${rev}" is not a git revision`);
  const explicit = new Set(paths.map((path) => posix.normalize(path)));
  const listed = await git(['ls-tree', '-r', '-z', rev, '--', ...(paths.length ? paths : ['.'])], cwd, rev);
  const blobs = parseTree(listed)
    .filter(({ file }) => explicit.has(posix.normalize(file)) || isPolicyFileName(posix.basename(file)))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  if (blobs.length === 0) return [];
  const contents = splitBatch(await git(['cat-file', '--batch'], cwd, rev, blobs.map((blob) => blob.oid).join('\n') + '\n'));
  return blobs.map((blob, index) => ({ file: blob.file, text: contents[index] ?? '' }));
}

/**
 * The commit a write records in its ownership marker (`autojoin-sync.commit`).
 * @param dir a directory inside the policy paths' repository
 * @returns the full id of the commit HEAD points to, or undefined outside git (or before the first commit)
 */
export async function headCommit(dir: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: dir, encoding: 'utf8' });
    const id = stdout.trim();
    return /^[0-9a-f]{40,64}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Parses `ls-tree -z` records `MODE TYPE OID\tPATH`, keeping blobs only. */
function parseTree(output: string): { oid: string; file: string }[] {
  return output
    .split('\0')
    .filter((record) => record !== '')
    .map((record) => {
      const tab = record.indexOf('\t');
      const [, type, oid] = record.slice(0, tab).split(' ');
      return { type, oid: oid ?? '', file: record.slice(tab + 1) };
    })
    .filter((entry) => entry.type === 'blob')
    .map(({ oid, file }) => ({ oid, file }));
}

/** Splits `cat-file --batch` output (`OID TYPE SIZE\n<content>\n` per object) into contents. */
function splitBatch(output: Buffer): string[] {
  const contents: string[] = [];
  let at = 0;
  while (at < output.length) {
    const headerEnd = output.indexOf(0x0a, at);
    const size = Number(output.subarray(at, headerEnd).toString('utf8').split(' ')[2]);
    contents.push(output.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
    at = headerEnd + 1 + size + 1;
  }
  return contents;
}

function git(args: string[], cwd: string, rev: string): Promise<string>;
function git(args: string[], cwd: string, rev: string, input: string): Promise<Buffer>;
async function git(args: string[], cwd: string, rev: string, input?: string): Promise<string | Buffer> {
  try {
    const child = run('git', args, { cwd, maxBuffer: MAX_OUTPUT, encoding: input === undefined ? 'utf8' : 'buffer' });
    if (input !== undefined) child.child.stdin?.end(input);
    const { stdout } = await child;
    return stdout;
  } catch (error) {
    const detail = gitMessage(error);
    throw new GitRevisionError(`--prune-from ${rev}: git ${args[0]} failed: ${detail}`);
  }
}

function gitMessage(error: unknown): string {
  const { stderr, code, message } = error as { stderr?: string; code?: string | number; message?: string };
  if (code === 'ENOENT') return 'git is not installed or not on PATH';
  const firstLine = (stderr ?? message ?? '').split('\n').find((line) => line.trim() !== '');
  return firstLine?.trim() ?? 'unknown error';
}
