/**
 * The state last applied to each scope whose files changed since this owner's marker: the policy
 * at the marker's commit, read from git under the project file of that same commit (its defaults
 * then, not today's). One read per commit for the whole plan, never one per scope: the scopes a
 * run writes all record the same commit. A commit that is gone (force-pushed away, a shallow
 * clone) or a file that no longer parses gives no state, and the plan falls back to this
 * repository's change (three-way.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parsePolicySources, parseProjectSource, type NamedSecret } from '../policy/index.js';
import { writtenStateOf } from '../plan/drift.js';
import type { LastApplied } from '../plan/three-way.js';
import type { WrittenState } from '../plan/ownership.js';
import type { ProjectConfig } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import { readPolicySourcesAt } from './git.js';

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
export async function readLastApplied(needed: ReadonlyMap<string, readonly ScopeKey[]>, options: LastAppliedOptions): Promise<LastApplied> {
  const states = new Map<string, Map<ScopeKey, WrittenState>>();
  for (const [commit, keys] of needed) {
    const wanted = new Set(keys);
    const found = await statesAt(commit, options).catch(() => []);
    states.set(commit, new Map(found.filter(([key]) => wanted.has(key))));
  }
  return (commit, key) => states.get(commit)?.get(key) ?? null;
}

async function statesAt(commit: string, options: LastAppliedOptions): Promise<[ScopeKey, WrittenState][]> {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return [];
  const sources = await readPolicySourcesAt(commit, options.paths, options.cwd);
  const project = await projectAt(commit, options);
  const { policies } = parsePolicySources(sources, { project, secrets: options.secrets });
  return policies.map((policy) => [policy.key, writtenStateOf(policy)]);
}

/** The project file as it was at `commit`; {} when it was not there (or did not parse). */
async function projectAt(commit: string, options: LastAppliedOptions): Promise<ProjectConfig> {
  if (!options.project.file) return {};
  try {
    const top = (await run('git', ['rev-parse', '--show-toplevel'], { cwd: options.cwd, encoding: 'utf8' })).stdout.trim();
    const relative = path.relative(top, options.project.file).split(path.sep).join('/');
    const text = (await run('git', ['show', `${commit}:${relative}`], { cwd: options.cwd, encoding: 'utf8', maxBuffer: 1024 * 1024 })).stdout;
    return parseProjectSource({ file: relative, text }, options.project.file).config;
  } catch {
    return {};
  }
}
