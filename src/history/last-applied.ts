/**
 * The state last applied to each scope whose files changed since this owner's marker: the policy
 * at the marker's commit, read from git under the project file of that same commit (its defaults
 * then, not today's). Per commit, one `git cat-file --batch` reads the files that declare those
 * scopes now, as they were then (a file is rarely moved); a scope not found there (its file moved
 * or was renamed since) costs one read of every policy file at that commit. A commit that is gone
 * (force-pushed away, a shallow clone) or a file that no longer parses gives no state, and the
 * plan falls back to this repository's change (three-way.ts). Never a git process per scope.
 */
import path from 'node:path';
import { MAX_FILE_BYTES, parsePolicySources, parseProjectSource, type NamedSecret, type PolicySource } from '../policy/index.js';
import type { LastApplied, NeededScope } from '../plan/three-way.js';
import { writtenStateOf, type WrittenState } from '../plan/ownership.js';
import type { ProjectConfig } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import { readPolicySourcesAt } from './versions.js';
import { runGit } from '../git/command.js';
import { readBlobs } from '../git/blobs.js';

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
  const commitDays = new Map<string, string>();
  for (const [commit, scopes] of needed) {
    // Expiry is evaluated on the day of the write; a marker without that day: the commit's date.
    const day = scopes.every((scope) => scope.applied) ? undefined : await commitDay(commit, options.cwd);
    if (day !== undefined) commitDays.set(commit, day);
    const days = [...new Set(scopes.map((scope) => scope.applied ?? day))];
    const found = await statesAt(commit, scopes, options, days).catch(() => new Map<string | undefined, Map<ScopeKey, WrittenState>>());
    for (const [at, byKey] of found) states.set(`${commit} ${at ?? ''}`, byKey);
  }
  return (commit, key, applied) => states.get(`${commit} ${applied ?? commitDays.get(commit) ?? ''}`)?.get(key) ?? null;
}

/** @returns the UTC date of a commit (its committer date); undefined when git cannot say */
async function commitDay(commit: string, cwd: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  try {
    const seconds = Number((await runGit(['show', '-s', '--format=%ct', commit], { cwd, context: 'the date of the commit last applied' })).toString('utf8').trim());
    return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString().slice(0, 10) : undefined;
  } catch {
    return undefined;
  }
}

async function statesAt(commit: string, scopes: readonly NeededScope[], options: LastAppliedOptions, days: readonly (string | undefined)[]): Promise<Map<string | undefined, Map<ScopeKey, WrittenState>>> {
  const byDay = new Map<string | undefined, Map<ScopeKey, WrittenState>>();
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return byDay;
  const project = await projectAt(commit, options);
  const files = [...new Set(scopes.map((scope) => scope.file))];
  const sources = await readFilesAt(commit, files, options.cwd);
  const first = statesOf(sources, project, options, days[0]);
  // A scope not found there (its file moved since): every policy file at that commit, read once.
  const all = scopes.some((scope) => !first.has(scope.key)) ? await readPolicySourcesAt(commit, options.paths, options.cwd) : [];
  for (const day of days) byDay.set(day, new Map([...statesOf(sources, project, options, day), ...statesOf(all, project, options, day)]));
  return byDay;
}

function statesOf(sources: readonly PolicySource[], project: ProjectConfig, options: LastAppliedOptions, day: string | undefined): Map<ScopeKey, WrittenState> {
  const { policies } = parsePolicySources(sources, { project, secrets: options.secrets, ...(day ? { today: day } : {}) });
  return new Map(policies.map((policy) => [policy.key, writtenStateOf(policy)]));
}

/** The project file as it was at `commit`; {} when it was not there (or did not parse). */
async function projectAt(commit: string, options: LastAppliedOptions): Promise<ProjectConfig> {
  if (!options.project.file) return {};
  try {
    const top = (await runGit(['rev-parse', '--show-toplevel'], { cwd: options.cwd, context: 'the project file last applied' })).toString('utf8').trim();
    const relative = path.relative(top, options.project.file).split(path.sep).join('/');
    const [source] = await readFilesAt(commit, [relative], top);
    return source ? parseProjectSource(source, options.project.file).config : {};
  } catch {
    return {};
  }
}

/**
 * Reads `files` (relative to `cwd`) as they were at `commit`, through the one blob reader (sizes
 * first: a past version over the policy-file cap is never read). A file missing then is left out.
 */
async function readFilesAt(commit: string, files: readonly string[], cwd: string): Promise<PolicySource[]> {
  const sources: PolicySource[] = [];
  const names = files.map((file) => `${commit}:./${file}`);
  await readBlobs(names, { cwd, context: `the state last applied at ${commit.slice(0, 12)}`, maxBytes: MAX_FILE_BYTES }, (name, read) => {
    if (read.kind === 'blob') sources.push({ file: name.slice(commit.length + 3), text: read.bytes.toString('utf8') });
  });
  return sources;
}
