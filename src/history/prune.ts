/**
 * Which scopes a run clears because no policy file declares them any more. Git history is the
 * state (docs/ownership-pruning-drift.md, "Pruning: git history is the state"): pruning (on by default) counts every scope
 * a policy file under the paths declared in any commit reachable from HEAD (history.ts), so a run
 * that never happened is caught up by the next; `--prune-from REV` is the narrow form, the scopes
 * declared at REV. Either way a scope declared now by any policy file in the working tree (under
 * the paths or not) is not pruned, and `prune.keep` releases scopes altogether. Outside git there
 * is no history, so nothing to prune.
 */
import path from 'node:path';
import { isMap, isScalar, parseAllDocuments } from 'yaml';
import { isInside, repositoryRoot } from '../files.js';
import { discoverPolicyFiles, readPolicySources, type NamedSecret } from '../policy/index.js';
import { parsePolicyText } from '../policy/plain.js';
import type { Diagnostic, PolicySource, ProjectConfig } from '../policy/types.js';
import type { DeclaredOutside, PrunedPolicy } from '../plan/types.js';
import { parseScopeKey, scopeKey, type ScopeKey } from '../scope.js';
import { hint, wordHint } from '../hint.js';
import { checkRevision, GitRevisionError, isNullRevision } from '../git/command.js';
import { openRepository, type Repository } from '../git/repository.js';
import { readReplacedVersions } from './walk.js';
import { historyPaths, versionsAt } from './policy-tree.js';
import { keyOf, pastScopeReader, type PastScopeReader } from './versions.js';
import type { WalkedHistory } from '../git/ancestry.js';

/** What to prune: the flags and the project file's `prune` settings, already merged. */
export interface PruneRequest {
  /** `--prune-from REV`: the scopes declared at REV (the narrow form; wins over `history`). */
  from?: string;
  /** Pruning from the whole history (on unless `--no-prune` / `prune: false`). */
  history?: boolean;
}

/** The scopes to clear, and warnings about what was read to find them. */
export interface Pruned {
  pruned: PrunedPolicy[];
  diagnostics: Diagnostic[];
  /** Candidates not pruned because a policy file outside the paths declares them now: where. */
  outside?: DeclaredOutside[];
  /** The history pruning walked (HEAD and every ancestor), when it walked one. */
  walked?: WalkedHistory;
}

export const NOTHING_PRUNED: Pruned = { pruned: [], diagnostics: [] };

/** Where the policy files are and how they are read. */
export interface PruneContext {
  paths: string[];
  cwd: string;
  project: ProjectConfig;
  /** The run's secrets: a past version holding one declares nothing. */
  secrets?: readonly NamedSecret[];
  /** Directories under the paths that hold another project's files (relative to `cwd`): their history is not this run's, their files declare elsewhere. */
  excluded?: readonly string[];
  /** The run's repository as read already (src/run/settings.ts), reused when the paths lie in its directory. */
  repository?: Repository;
}

/** @returns what the project file says of pruning (`prune: true|false`, `prune.history`); undefined when it says nothing (then it is on). */
export function pruneSetting(project: ProjectConfig): boolean | undefined {
  const setting = project.prune;
  return typeof setting === 'boolean' ? setting : setting?.history;
}

/**
 * Finds the policies to prune: scopes declared in history (or at `from`), not declared now (under
 * the paths, or anywhere else in the working tree), and not released by `prune.keep`.
 * @param declared the keys of the policies the files under the paths declare now
 */
export async function findPruned(request: PruneRequest, context: PruneContext, declared: ReadonlySet<ScopeKey>): Promise<Pruned> {
  let found: Pruned;
  if (request.from !== undefined) found = await prunedSince(request.from, context, declared);
  else if (request.history) found = await prunedFromHistory(context, declared);
  else return NOTHING_PRUNED;
  const kept = keptScopes(context.project);
  const elsewhere = await notDeclaredElsewhere(found.pruned.filter((policy) => !kept.has(policy.key)), context);
  return { ...found, pruned: elsewhere.pruned, outside: elsewhere.outside };
}

/**
 * For a run without pruning: the scopes pruning would consider (history, not declared now, not
 * kept), so the plan can say how many are left as they are; `onWalked` gets the history it walked.
 * Never fails the run: a shallow clone or a git error gives null (not known).
 */
export async function undeclaredInHistory(context: PruneContext, declared: ReadonlySet<ScopeKey>, onWalked?: (history: WalkedHistory) => void): Promise<ScopeKey[] | null> {
  try {
    const { pruned, walked } = await findPruned({ history: true }, context, declared);
    if (walked) onWalked?.(walked);
    return pruned.map((policy) => policy.key).sort();
  } catch (error) {
    if (error instanceof GitRevisionError) return null;
    throw error;
  }
}

/** The scopes of every policy file version history replaced, not declared now. */
async function prunedFromHistory(context: PruneContext, declared: ReadonlySet<ScopeKey>): Promise<Pruned> {
  const repository = await openRepository(context.paths, context.cwd, 'pruning', context.repository);
  const paths = repository && historyPaths(repository, context.paths, context.excluded);
  // Stryker disable next-line LogicalOperator: paths is null whenever repository is (the line above)
  if (!repository || !paths) return NOTHING_PRUNED;
  const reader = pastReader(repository, context, declared, 'pruning');
  let walked: WalkedHistory | undefined;
  try {
    walked = await readReplacedVersions(repository, paths, (version) => reader.add(version));
  } catch (error) {
    await reader.finish().catch(() => undefined); // its git processes end too
    throw error;
  }
  const past = await reader.finish();
  return { pruned: [...past.scopes.values()], diagnostics: past.diagnostics, ...(walked ? { walked } : {}) };
}

/** Policies at revision `rev` whose scope has no policy now (each version read as the loader read it at `rev`). */
async function prunedSince(rev: string, context: PruneContext, declared: ReadonlySet<ScopeKey>): Promise<Pruned> {
  const what = wordHint(hint('pruneFrom', rev));
  checkRevision(rev, wordHint(hint('pruneFrom')));
  if (isNullRevision(rev)) return NOTHING_PRUNED;
  const repository = await openRepository(context.paths, context.cwd, what, context.repository);
  if (!repository) throw new GitRevisionError(`${what}: the policy paths are not in a git repository`);
  const paths = historyPaths(repository, context.paths, context.excluded);
  // Stryker disable next-line ConditionalExpression: defensive: the repository is found from the paths' common directory, so some path lies in it
  if (!paths) return NOTHING_PRUNED;
  const versions = await versionsAt(repository, rev, paths, { order: 0, context: what });
  const reader = pastReader(repository, context, declared, what);
  versions.forEach((version) => reader.add(version));
  const past = await reader.finish();
  return { pruned: [...past.scopes.values()], diagnostics: past.diagnostics };
}

function pastReader(repository: Repository, context: PruneContext, declared: ReadonlySet<ScopeKey>, what: string): PastScopeReader {
  return pastScopeReader(repository, { secrets: context.secrets ?? [], isDeclared: (key) => declared.has(key), context: what });
}

/**
 * Drops the candidates a policy file outside the paths declares now (moved there, say), so a run
 * over some paths does not clear what a run over others creates; each one dropped is named with
 * the file and line that declares it (the plan shows them: a broken fixture that names the
 * scope id must not block a prune in silence). The rest of the repository is read only when
 * there is a candidate. Those files are not this run's to check: one that cannot be read declares
 * nothing, and one with errors declares every key that can be made out in it (keeping a scope is
 * the safe side).
 */
async function notDeclaredElsewhere(candidates: PrunedPolicy[], context: PruneContext): Promise<{ pruned: PrunedPolicy[]; outside: DeclaredOutside[] }> {
  // Stryker disable next-line ConditionalExpression: a shortcut (the repository is not read): without candidates nothing below is kept either
  if (candidates.length === 0) return { pruned: candidates, outside: [] };
  const files = await policyFilesOutside(context.paths, context.cwd, context.excluded ?? []);
  // Stryker disable next-line ConditionalExpression: a shortcut: no file keeps nothing below either
  if (files.length === 0) return { pruned: candidates, outside: [] };
  const { sources } = await readPolicySources(files, context.cwd);
  const where = new Map<ScopeKey, DeclaredOutside>();
  for (const source of sources) {
    for (const { key, line } of keysReadable(source, candidates, context.project)) {
      if (!where.has(key)) where.set(key, { key, file: shownPath(source.file, context.cwd), line });
    }
  }
  const outside = [...where.values()].filter(({ key }) => candidates.some((policy) => policy.key === key));
  // Stryker disable next-line EqualityOperator: the keys are a map's, never equal, so < and <= (> and >=) sort alike
  return { pruned: candidates.filter((policy) => !where.has(policy.key)), outside: outside.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
}

function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, path.resolve(cwd, file));
  return relative.split(path.sep).join('/');
}

/** The policy files of the repository around `cwd` (loader's discovery rules) that no path covers, or that lie in an excluded directory. */
async function policyFilesOutside(paths: readonly string[], cwd: string, excluded: readonly string[]): Promise<string[]> {
  const root = (await repositoryRoot(path.resolve(cwd))) ?? cwd;
  const given = paths.map((given) => path.resolve(cwd, given));
  const others = excluded.map((dir) => path.resolve(cwd, dir));
  // Stryker disable next-line all: a shortcut (the repository is not walked): with the root covered, the filter below leaves no file either
  if (others.length === 0 && given.some((covered) => isInside(covered, root))) return [];
  const { files } = await discoverPolicyFiles([root], cwd);
  const outside = (file: string): boolean => others.some((dir) => isInside(dir, file)) || !given.some((covered) => isInside(covered, file));
  return files.filter((file) => outside(path.resolve(cwd, file)));
}

/**
 * The keys a file declares, read by the loader's YAML reader, each with the line of its document.
 * A YAML error hides its document, and a document without a scopeType (and no default) names no
 * type, so then every candidate whose id a `scope` key of the file names counts too (read
 * leniently, errors or not), whatever its scopeType.
 */
function keysReadable(source: PolicySource, candidates: readonly PrunedPolicy[], project: ProjectConfig): { key: ScopeKey; line: number }[] {
  const parsed = parsePolicyText(source);
  const named = parsed.documents.map(({ data, start }) => ({ key: keyOf(data, project), scope: data.scope, line: start.line }));
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: a null key kept would match no candidate (keys are strings)
  const keys = named.flatMap(({ key, line }) => (key === null ? [] : [{ key, line }]));
  if (parsed.diagnostics.length === 0 && named.every(({ key, scope }) => key !== null || scope === undefined)) return keys;
  const mentioned = scopesNamed(source.text);
  return [...keys, ...candidates.flatMap((policy) => {
    const line = mentioned.get(policy.scope);
    // Stryker disable next-line ArrayDeclaration: a string entry has no key, so keeps no candidate
    return line === undefined ? [] : [{ key: policy.key, line }];
  })];
}

/** Every value of a top-level `scope` key the YAML parser can make out, with its line, documents with errors included (aliases never expanded). */
function scopesNamed(text: string): Map<string, number> {
  const documents = parseAllDocuments(text);
  const named = new Map<string, number>();
  // Stryker disable next-line ArrayDeclaration: parseAllDocuments gives no array only for a text without documents, which has no error, so is never read leniently
  for (const document of Array.isArray(documents) ? documents : []) {
    // Stryker disable next-line ConditionalExpression: a sequence's items are no pairs with a scalar key, so the checks below skip them too
    if (!isMap(document.contents)) continue;
    for (const pair of document.contents.items) {
      if (!isScalar(pair.key) || pair.key.value !== 'scope' || !isScalar(pair.value)) continue;
      const offset = pair.key.range[0];
      named.set(String(pair.value.value), text.slice(0, offset).split('\n').length);
    }
  }
  return named;
}

/** `prune.keep` of the project file as scope keys (the schema checked their TYPE/ID form). */
function keptScopes(project: ProjectConfig): Set<ScopeKey> {
  const keep = typeof project.prune === 'object' ? (project.prune.keep ?? []) : [];
  return new Set(keep.map((entry) => scopeKey(parseScopeKey(entry))));
}
