/**
 * `plan --changed-since REV`: the incremental plan of a pull request. Only the policy files that
 * differ from REV (added, edited, deleted; untracked files count as added) are read and parsed,
 * so the live state is read only for the scopes they declare, and a PR touching 3 of 10,000
 * files plans in well under a second.
 *
 * What it gives up, by design: unchanged files are neither parsed nor checked (a duplicate scope
 * between a changed and an unchanged file goes unseen: `validate` checks the whole tree), and it
 * never prunes: scopes whose policy was deleted are only reported (a notice), never cleared. The
 * full plan, which prunes by default, stays the one that shows every clear a merge will make.
 */
import { resolve } from 'node:path';
import { compareDiagnostics, parsePolicySources, policyPathRule, readPolicySources, type NamedSecret } from '../policy/index.js';
import type { LoadResult, Policy, ProjectConfig } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import { hint, wordHint, worded } from '../hint.js';
import { firstItems } from '../text.js';
import { checkRevision, GitRevisionError, runGit } from '../git/command.js';
import { openRepository, type Repository } from '../git/repository.js';
import { historyPaths, versionsAt } from './policy-tree.js';
import { pastScopeReader } from './versions.js';

/** The policy files that differ from a revision, relative to cwd. */
export interface ChangedFiles {
  /** Added, edited or untracked: read from the working tree. */
  present: string[];
  /** Edited or deleted: read as they were at the revision. */
  previous: string[];
}

/** What `--changed-since` plans from: the changed files' policies now, and the scopes they no longer declare. */
export interface ChangedLoad {
  load: LoadResult;
  /** Scopes declared at the revision by a changed file and by no changed file now (sorted keys). */
  deleted: ScopeKey[];
}

/**
 * Loads only the policy files under `paths` that changed since `rev`.
 * @throws GitRevisionError when git cannot compare with `rev`
 */
export async function loadChangedPolicies(
  rev: string,
  paths: readonly string[],
  cwd: string,
  project: ProjectConfig,
  secrets: readonly NamedSecret[] = [],
): Promise<ChangedLoad> {
  const what = wordHint(hint('changedSince', rev));
  checkRevision(rev, wordHint(hint('changedSince')));
  const repository = await openRepository(paths.length > 0 ? paths : ['.'], cwd, what);
  if (!repository) throw new GitRevisionError(`${what}: the policy paths are not in a git repository`);
  const changed = await changedPolicyFiles(rev, paths, repository);
  const read = await readPolicySources(changed.present.map((file) => resolve(cwd, file)), cwd);
  const now = parsePolicySources(read.sources, { project, secrets, rules: true });
  const declared = new Set(now.policies.map((policy: Policy) => policy.key));
  const deleted = await deletedSince(rev, changed.previous, repository, { secrets, declared, what });
  const diagnostics = [...read.diagnostics, ...now.diagnostics].sort(compareDiagnostics);
  return { load: { policies: now.policies, policyCount: now.policyCount, diagnostics, files: changed.present }, deleted };
}

/** The scopes the changed files declared at `rev` (read as then, under `rev`'s project file) and no changed file declares now. */
async function deletedSince(
  rev: string,
  previous: readonly string[],
  repository: Repository,
  options: { secrets: readonly NamedSecret[]; declared: ReadonlySet<ScopeKey>; what: string },
): Promise<ScopeKey[]> {
  const paths = previous.length === 0 ? null : historyPaths(repository, previous);
  if (!paths) return [];
  const versions = await versionsAt(repository, rev, paths, { order: 0, context: options.what });
  const reader = pastScopeReader(repository, { secrets: options.secrets, isDeclared: (key) => options.declared.has(key), context: options.what });
  versions.forEach((version) => reader.add(version));
  return [...(await reader.finish()).scopes.keys()].sort();
}

/**
 * {@link loadChangedPolicies}, telling `notice` about scopes whose policy was deleted.
 * @returns the load to plan from
 */
export async function loadChangedSince(
  rev: string,
  paths: readonly string[],
  options: { cwd: string; project: ProjectConfig; secrets?: readonly NamedSecret[]; notice?: (message: string) => void },
): Promise<LoadResult> {
  const { load, deleted } = await loadChangedPolicies(rev, paths, options.cwd, options.project, options.secrets);
  if (deleted.length > 0) {
    const listed = firstItems(deleted, 5, () => ', …');
    options.notice?.(
      worded`${deleted.length} scope(s) lost their policy since ${rev} (${listed}); ${hint('changedSince')} never prunes, so it leaves them as they are: the full plan (without ${hint('changedSince')}) clears them`,
    );
  }
  return load;
}

/** @returns the policy files under `paths` (relative to cwd) that differ between `rev` and the working tree. */
export async function changedPolicyFiles(rev: string, paths: readonly string[], repository: Repository): Promise<ChangedFiles> {
  const given = paths.length > 0 ? paths : ['.'];
  const options = { cwd: repository.cwd, context: wordHint(hint('changedSince', rev)) };
  const scope = ['--', ...given];
  const isPolicy = policyPathRule(given);
  const [diff, untracked] = (
    await Promise.all([
      runGit(['diff', '--name-status', '-z', '--no-renames', '--relative', rev, ...scope], options),
      runGit(['ls-files', '-z', '--others', '--exclude-standard', ...scope], options),
    ])
  ).map((output) => output.toString('utf8').split('\0').filter((field) => field !== '')) as [string[], string[]];
  const present = new Set(untracked.filter(isPolicy));
  const previous = new Set<string>();
  for (let i = 0; i + 1 < diff.length; i += 2) {
    const [status, file] = [diff[i] as string, diff[i + 1] as string];
    if (!isPolicy(file)) continue;
    if (status !== 'D') present.add(file);
    if (status !== 'A') previous.add(file);
  }
  return { present: [...present].sort(), previous: [...previous].sort() };
}
