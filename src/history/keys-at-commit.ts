/**
 * The metadata keys a policy declared at a marker's commit, for markers an older release wrote
 * without `autojoin-sync.keys` (src/plan/marker-keys.ts): the files that declare those scopes now
 * and the project file, as they were at each commit, read in one `git cat-file --batch` for every
 * commit at once (src/git/blobs.ts), then parsed under that commit's project file (its defaults
 * name the scopes). A commit that is gone, a file that was not there or does not parse, or a
 * scope it does not declare gives no answer (null): the plan then takes the keys declared now.
 */
import path from 'node:path';
import { MAX_FILE_BYTES, parsePolicySources, parseProjectSource, type PolicySource } from '../policy/index.js';
import type { NeededScope } from '../plan/three-way.js';
import type { ProjectConfig } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import { readBlobs } from '../git/blobs.js';
import type { LastAppliedOptions } from './last-applied.js';

/** @returns the keys the policy of `key` declared at `commit`, or null when that cannot be read. */
export type KeysAt = (commit: string, key: ScopeKey) => readonly string[] | null;

/**
 * @param needed the commits to read, each with its scopes (PlanBuilder.keysNeeded)
 */
export async function readKeysAt(needed: ReadonlyMap<string, readonly NeededScope[]>, options: LastAppliedOptions): Promise<KeysAt> {
  const commits = [...needed.keys()].filter((commit) => /^[0-9a-f]{40,64}$/.test(commit));
  if (commits.length === 0) return () => null;
  const project = projectName(options);
  const names = commits.flatMap((commit) => [
    ...(project === undefined ? [] : [`${commit}:${project}`]),
    ...[...new Set((needed.get(commit) ?? []).map((scope) => scope.file))].map((file) => `${commit}:./${file}`),
  ]);
  const texts = new Map<string, string>();
  try {
    await readBlobs(names, { cwd: options.cwd, context: 'the metadata keys last applied', maxBytes: MAX_FILE_BYTES }, (name, read) => {
      if (read.kind === 'blob') texts.set(name, read.bytes.toString('utf8'));
    });
  } catch {
    return () => null;
  }
  const keys = new Map<string, Map<ScopeKey, string[]>>();
  for (const commit of commits) keys.set(commit, keysOf(commit, texts, project === undefined ? undefined : texts.get(`${commit}:${project}`), options));
  return (commit, key) => keys.get(commit)?.get(key) ?? null;
}

/** The project file as a revision path relative to the run's directory (`./…` or `../…`); undefined without one. */
function projectName(options: LastAppliedOptions): string | undefined {
  if (!options.project.file) return undefined;
  const relative = path.relative(path.resolve(options.cwd), options.project.file).split(path.sep).join('/');
  return relative.startsWith('../') ? relative : `./${relative}`;
}

function keysOf(commit: string, texts: ReadonlyMap<string, string>, projectText: string | undefined, options: LastAppliedOptions): Map<ScopeKey, string[]> {
  const prefix = `${commit}:./`;
  const sources: PolicySource[] = [...texts].filter(([name]) => name.startsWith(prefix)).map(([name, text]) => ({ file: name.slice(prefix.length), text }));
  const { policies } = parsePolicySources(sources, { project: projectAt(projectText, options), secrets: options.secrets });
  return new Map(policies.map((policy) => [policy.key, Object.keys(policy.metadata ?? {})]));
}

/** The project file at the commit: {} when it was not there (or does not parse). */
function projectAt(text: string | undefined, options: LastAppliedOptions): ProjectConfig {
  if (text === undefined || !options.project.file) return {};
  try {
    return parseProjectSource({ file: options.project.file, text }, options.project.file).config;
  } catch {
    return {};
  }
}
