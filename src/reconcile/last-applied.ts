/**
 * The state last applied to each scope whose files changed since this owner's marker: the policy
 * at the marker's commit, read from git under the project file of that same commit (its defaults
 * then, not today's). Per commit, one `git cat-file --batch` reads the files that declare those
 * scopes now, as they were then (a file is rarely moved); a scope not found there (its file moved
 * or was renamed since) costs one read of every policy file at that commit. A commit that is gone
 * (force-pushed away, a shallow clone) or a file that no longer parses gives no state, and the
 * plan falls back to this repository's change (three-way.ts). Never a git process per scope.
 */
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { MAX_FILE_BYTES, parsePolicySources, parseProjectSource, type NamedSecret, type PolicySource } from '../policy/index.js';
import { writtenStateOf } from '../plan/drift.js';
import type { LastApplied, NeededScope } from '../plan/three-way.js';
import type { WrittenState } from '../plan/ownership.js';
import type { ProjectConfig } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import { readPolicySourcesAt } from './versions.js';

const run = promisify(execFile);

export interface LastAppliedOptions {
  paths: readonly string[];
  cwd: string;
  /** Today's project file (only its location is used: its content at each commit is read from git). */
  project: ProjectConfig;
  secrets?: readonly NamedSecret[];
}

/**
 * @param needed the commits to read, each with the scopes wanted from it (PlanBuilder.lastAppliedNeeded)
 * @returns the state of a scope at a commit; null when the commit, or the scope in it, is unknown
 */
export async function readLastApplied(needed: ReadonlyMap<string, readonly NeededScope[]>, options: LastAppliedOptions): Promise<LastApplied> {
  const states = new Map<string, Map<ScopeKey, WrittenState>>();
  for (const [commit, scopes] of needed) {
    states.set(commit, await statesAt(commit, scopes, options).catch(() => new Map<ScopeKey, WrittenState>()));
  }
  return (commit, key) => states.get(commit)?.get(key) ?? null;
}

async function statesAt(commit: string, scopes: readonly NeededScope[], options: LastAppliedOptions): Promise<Map<ScopeKey, WrittenState>> {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return new Map();
  const project = await projectAt(commit, options);
  const files = [...new Set(scopes.map((scope) => scope.file))];
  const found = statesOf(await readFilesAt(commit, files, options.cwd), project, options);
  if (scopes.some((scope) => !found.has(scope.key))) {
    for (const [key, state] of statesOf(await readPolicySourcesAt(commit, options.paths, options.cwd), project, options)) found.set(key, state);
  }
  return found;
}

function statesOf(sources: readonly PolicySource[], project: ProjectConfig, options: LastAppliedOptions): Map<ScopeKey, WrittenState> {
  const { policies } = parsePolicySources(sources, { project, secrets: options.secrets });
  return new Map(policies.map((policy) => [policy.key, writtenStateOf(policy)]));
}

/** The project file as it was at `commit`; {} when it was not there (or did not parse). */
async function projectAt(commit: string, options: LastAppliedOptions): Promise<ProjectConfig> {
  if (!options.project.file) return {};
  try {
    const top = (await run('git', ['rev-parse', '--show-toplevel'], { cwd: options.cwd, encoding: 'utf8' })).stdout.trim();
    const relative = path.relative(top, options.project.file).split(path.sep).join('/');
    const [source] = await readFilesAt(commit, [relative], top);
    return source ? parseProjectSource(source, options.project.file).config : {};
  } catch {
    return {};
  }
}

/**
 * Reads `files` (relative to `cwd`) as they were at `commit`: `git cat-file --batch-check` for
 * their sizes, then one `--batch` for those under the policy-file size cap, so a huge past
 * version is never read into memory. A file missing at that commit is left out.
 */
async function readFilesAt(commit: string, files: readonly string[], cwd: string): Promise<PolicySource[]> {
  const specs = files.map((file) => `${commit}:./${file}`);
  const checked = (await catFile('--batch-check', specs, cwd)).toString('utf8').split('\n');
  const wanted = files.filter((_, index) => {
    const [, type, size] = (checked[index] ?? '').split(' ');
    return type === 'blob' && Number(size) <= MAX_FILE_BYTES;
  });
  if (wanted.length === 0) return [];
  return parseBatch(await catFile('--batch', wanted.map((file) => `${commit}:./${file}`), cwd), wanted);
}

function catFile(mode: '--batch' | '--batch-check', specs: readonly string[], cwd: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', mode], { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git cat-file exited with ${code}`))));
    child.stdin.end(specs.map((spec) => `${spec}\n`).join(''));
  });
}

/** Splits `--batch` output, `<oid> blob <size>\n<bytes>\n` per file (each known to exist). */
function parseBatch(output: Buffer, files: readonly string[]): PolicySource[] {
  const sources: PolicySource[] = [];
  let offset = 0;
  for (const file of files) {
    const end = output.indexOf(0x0a, offset);
    if (end === -1) break;
    const size = Number(output.subarray(offset, end).toString('utf8').split(' ')[2]);
    offset = end + 1;
    sources.push({ file, text: output.subarray(offset, offset + size).toString('utf8') });
    offset += size + 1;
  }
  return sources;
}
