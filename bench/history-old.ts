/**
 * A copy of the history read as it was before pruning read the whole history: `git log --raw --
 * PATHS` with git's default history simplification (which skips one side of a merge), one
 * buffered `cat-file --batch`, and a regular-expression glance before YAML. Kept only as the
 * comparison of bench/history.ts; nothing in src/ uses it.
 */
import { spawn } from 'node:child_process';
import { posix } from 'node:path';
import { isPolicyFileName, parsePolicySources } from '../src/policy/index.js';
import type { PolicySource, ProjectConfig } from '../src/policy/types.js';
import type { PrunedPolicy, RemovalCommit } from '../src/plan/types.js';
import { GitRevisionError } from '../src/git/command.js';
import { scopeKey, type ScopeKey } from '../src/scope.js';

/** A policy file's text as a commit found it, and that commit (which deleted or rewrote the file). */
export interface ReplacedSource extends PolicySource {
  removedBy: RemovalCommit;
}

/** Length of the commit ids plans show: unique in any repository people keep policies in. */
const SHORT_SHA = 12;
/** Directory names the loader never descends into (src/policy/discover.ts), so history skips them too. */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', '.autojoin-sync']);

/**
 * Every version of a policy file under `paths` that a commit reachable from HEAD deleted or
 * rewrote, newest commit first, each with that commit.
 * @param paths files or directories relative to `cwd` (default: cwd itself)
 * @returns sources named by their path relative to cwd, as the loader names files
 * @throws GitRevisionError outside a git repository, in a shallow clone, or when git fails
 */
export async function readReplacedPolicySources(paths: readonly string[], cwd: string): Promise<ReplacedSource[]> {
  const prefix = await repositoryPrefix(cwd);
  const given = paths.length > 0 ? paths : ['.'];
  const explicit = new Set(given.map((path) => posix.join(prefix, path)));
  const log = await git(['log', '-z', '--raw', '--no-renames', '--no-abbrev', '--diff-filter=DMT', `--format=%x01%H%x00%cI%x00%s`, '--', ...given], cwd).catch(
    (error: unknown) => {
      // A repository without a first commit has no history, so nothing to prune yet.
      if (error instanceof GitRevisionError && error.message.includes('does not have any commits yet')) return Buffer.alloc(0);
      throw error;
    },
  );
  const replaced = parseLog(log).filter(({ file }) => isUnderPaths(file, explicit));
  if (replaced.length === 0) return [];
  const blobs = [...new Set(replaced.map(({ blob }) => blob))];
  const texts = splitBatch(await git(['cat-file', '--batch'], cwd, `${blobs.join('\n')}\n`), blobs);
  return replaced.flatMap(({ file, blob, removedBy }) => {
    const text = texts.get(blob);
    return text === undefined ? [] : [{ file: posix.relative(prefix, file) || file, text, removedBy }];
  });
}

/** @returns cwd's path inside its repository (`''` at the root, else ending in `/`). */
async function repositoryPrefix(cwd: string): Promise<string> {
  const output = (await git(['rev-parse', '--is-shallow-repository', '--show-prefix'], cwd)).toString('utf8');
  const [shallow, prefix = ''] = output.split('\n');
  if (shallow === 'true') {
    throw new GitRevisionError(
      '--prune reads the whole git history, but this is a shallow clone: scopes deleted before its first commit would be missed. ' +
        'Fetch the full history (`git fetch --unshallow`, or `fetch-depth: 0` for actions/checkout), or use --prune-from GITREV.',
    );
  }
  return prefix;
}

/** One replaced blob: the file it was, and the commit that replaced it. */
interface Replaced {
  /** Path from the repository root. */
  file: string;
  blob: string;
  removedBy: RemovalCommit;
}

/**
 * Parses `log -z --raw --format=%x01%H%x00%cI%x00%s`: per commit `\x01SHA\0DATE\0SUBJECT\0`, then
 * per entry `[\n]:MODE MODE OLD NEW STATUS\0PATH\0`. Keeps the OLD side of each entry.
 */
function parseLog(output: Buffer): Replaced[] {
  const tokens = output.toString('utf8').split('\0');
  const replaced: Replaced[] = [];
  let commit: RemovalCommit | undefined;
  for (let index = 0; index < tokens.length; index++) {
    const token = (tokens[index] as string).replace(/^\n/, '');
    if (token.startsWith('\x01')) {
      commit = { commit: token.slice(1, 1 + SHORT_SHA), date: tokens[index + 1] ?? '', subject: tokens[index + 2] ?? '' };
      index += 2;
    } else if (token.startsWith(':') && commit) {
      const blob = token.split(' ')[2] ?? '';
      replaced.push({ file: tokens[index + 1] ?? '', blob, removedBy: commit });
      index += 1;
    }
  }
  return replaced.filter(({ blob }) => /^[0-9a-f]+$/.test(blob) && !/^0+$/.test(blob));
}

/** As the loader discovers files: a policy file name under a directory given, or a file given by name. */
function isUnderPaths(file: string, explicit: ReadonlySet<string>): boolean {
  if (explicit.has(file)) return true;
  const parts = file.split('/');
  return isPolicyFileName(parts[parts.length - 1] ?? '') && !parts.slice(0, -1).some((part) => SKIPPED_DIRECTORIES.has(part));
}

/** Splits `cat-file --batch` output (`OID TYPE SIZE\n<content>\n`, or `OID missing\n`) by blob id. */
function splitBatch(output: Buffer, blobs: readonly string[]): Map<string, string> {
  const texts = new Map<string, string>();
  let at = 0;
  for (const blob of blobs) {
    const headerEnd = output.indexOf(0x0a, at);
    if (headerEnd < 0) break;
    const [, type, size] = output.subarray(at, headerEnd).toString('utf8').split(' ');
    if (type === undefined || size === undefined) {
      at = headerEnd + 1;
      continue;
    }
    if (type === 'blob') texts.set(blob, output.subarray(headerEnd + 1, headerEnd + 1 + Number(size)).toString('utf8'));
    at = headerEnd + 1 + Number(size) + 1;
  }
  return texts;
}

/** Runs git to completion (no output cap: a long history is fine), feeding `input` on stdin. */
function git(args: string[], cwd: string, input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) => reject(gitFailed(args, error.code === 'ENOENT' ? 'git is not installed or not on PATH' : error.message)));
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(stdout));
      else reject(gitFailed(args, stderr));
    });
    child.stdin.on('error', () => undefined); // git may exit before reading all of stdin; 'close' reports why
    child.stdin.end(input ?? '');
  });
}

function gitFailed(args: readonly string[], stderr: string): GitRevisionError {
  const detail = stderr.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'unknown error';
  if (/not a git repository/i.test(detail)) {
    return new GitRevisionError('--prune reads the git history of the policy files, but this is not a git repository (run it in a clone, or leave --prune out)');
  }
  return new GitRevisionError(`--prune: git ${args[0]} failed: ${detail}`);
}

/**
 * The pure half of `--prune`: walks replaced file versions newest first; the first version
 * declaring a scope that is not declared now gives its policy (componentId for the POST) and
 * the commit that removed it. Each version is checked on its own, as the file it was; a
 * document with an error (fixed in a later commit, say) names no scope.
 * @param sources replaced versions, newest commit first (readReplacedPolicySources)
 */
export function prunedFromHistory(sources: readonly ReplacedSource[], declared: ReadonlySet<ScopeKey>, project: ProjectConfig): PrunedPolicy[] {
  const found = new Map<ScopeKey, PrunedPolicy>();
  const scopeType = project.defaults?.scopeType;
  for (const source of sources) {
    // Most replaced versions are edits of scopes still declared: skip those without parsing YAML.
    if (scopesAtAGlance(source.text, scopeType)?.every((key) => declared.has(key) || found.has(key))) continue;
    for (const policy of parsePolicySources([source], { project }).policies) {
      if (declared.has(policy.key) || found.has(policy.key)) continue;
      found.set(policy.key, { ...policy, removedBy: source.removedBy });
    }
  }
  return [...found.values()];
}

const DOCUMENT_START = /^---[ \t]*(?:#.*)?$/;
const BLANK_OR_COMMENT = /^[ \t]*(?:#.*)?$/;
const TOP_LEVEL_KEY = /^[A-Za-z][A-Za-z0-9_-]*:(?:[ \t]|$)/;
const SIMPLE_VALUE = /^(scope|scopeType):[ \t]+([A-Za-z0-9][A-Za-z0-9._-]*)[ \t]*(?:#.*)?$/;

/**
 * The scope keys a policy file declares, read without a YAML parser, for files in the plain
 * shape every policy file has: documents split by bare `---` lines, each a block mapping whose
 * top-level lines are `key:` at column 0, with one `scope:` and at most one `scopeType:` holding a
 * plain word. Anything else (flow style, quotes, anchors, tags, directives, a value continued on
 * the next line) returns null, and the caller parses the file for real.
 * @param defaultScopeType scopeType of a document without one (defaults.scopeType of the project
 *   file); without it such a document declares no scope, as the loader finds it in error
 */
export function scopesAtAGlance(text: string, defaultScopeType: string | undefined): ScopeKey[] | null {
  const documents: string[][] = [[]];
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (DOCUMENT_START.test(line)) documents.push([]);
    else if (line.startsWith('---') || line.startsWith('...') || line.startsWith('%')) return null;
    else documents[documents.length - 1]?.push(line);
  }
  const keys: ScopeKey[] = [];
  for (const lines of documents) {
    const content = lines.filter((line) => !BLANK_OR_COMMENT.test(line));
    if (content.length === 0) continue;
    const found = documentScope(content, defaultScopeType);
    if (found === null) return null;
    keys.push(...found);
  }
  return keys;
}

/** One document's key (none without a scopeType), from its non-blank, non-comment lines; null unless in the plain shape. */
function documentScope(content: readonly string[], defaultScopeType: string | undefined): ScopeKey[] | null {
  const values = new Map<string, string>();
  for (const [index, line] of content.entries()) {
    if (/^[ \t]/.test(line)) continue;
    if (!TOP_LEVEL_KEY.test(line)) return null;
    const simple = SIMPLE_VALUE.exec(line);
    const name = line.slice(0, line.indexOf(':'));
    if (name !== 'scope' && name !== 'scopeType') continue;
    // A value in the plain shape, once, and not continued on an indented next line.
    if (!simple || values.has(name) || /^[ \t]/.test(content[index + 1] ?? '')) return null;
    values.set(name, simple[2] as string);
  }
  const scope = values.get('scope');
  if (scope === undefined) return null;
  const scopeType = values.get('scopeType') ?? defaultScopeType;
  return scopeType === undefined ? [] : [scopeKey({ scopeType, scope })];
}
