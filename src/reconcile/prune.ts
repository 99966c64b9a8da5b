/**
 * Which scopes a run clears because no policy file declares them any more. Git history is the
 * state (README, "Pruning: git history is the state"): with `--prune` every scope a policy file under the paths declared
 * in any commit reachable from HEAD counts, so a run that never happened is caught up by the next;
 * `--prune-from REV` is the narrow form, the scopes declared at REV. Either way a scope declared
 * now by any policy file in the repository (again, or in another file, under the paths or not) is
 * not pruned, and `prune.keep` releases scopes altogether.
 */
import path from 'node:path';
import { isInside, repositoryRoot } from '../files.js';
import { discoverPolicyFiles, parsePolicySources, readPolicySources } from '../policy/index.js';
import { parsePolicyText } from '../policy/plain.js';
import type { Diagnostic, PolicySource, ProjectConfig } from '../policy/types.js';
import type { PrunedPolicy } from '../plan/types.js';
import { parseScopeKey, scopeKey, type ScopeKey } from '../scope.js';
import { isNullRevision, readPolicySourcesAt } from './git.js';
import { readReplacedPolicySources, type ReplacedSource } from './history.js';

/** What to prune: the flags and the project file's `prune` settings, already merged. */
export interface PruneRequest {
  /** `--prune-from REV`: the scopes declared at REV (the narrow form; wins over `history`). */
  from?: string;
  /** `--prune` / `prune.history`: every scope declared anywhere in git history. */
  history?: boolean;
}

/** The scopes to clear, and warnings about what was read to find them. */
export interface Pruned {
  pruned: PrunedPolicy[];
  diagnostics: Diagnostic[];
}

export const NOTHING_PRUNED: Pruned = { pruned: [], diagnostics: [] };

/** Where the policy files are and how they are read. */
export interface PruneContext {
  paths: string[];
  cwd: string;
  project: ProjectConfig;
}

/**
 * Finds the policies to prune: scopes declared in history (or at `from`), not declared now (under
 * the paths, or anywhere else in the repository), and not released by `prune.keep`.
 * @param declared the keys of the policies the files under the paths declare now
 */
export async function findPruned(request: PruneRequest, context: PruneContext, declared: ReadonlySet<ScopeKey>): Promise<Pruned> {
  let found: Pruned;
  if (request.from !== undefined) found = await prunedSince(request.from, context, declared);
  else if (request.history) found = { pruned: prunedFromHistory(await readReplacedPolicySources(context.paths, context.cwd), declared, context.project), diagnostics: [] };
  else return NOTHING_PRUNED;
  const kept = keptScopes(context.project);
  return { ...found, pruned: await notDeclaredElsewhere(found.pruned.filter((policy) => !kept.has(policy.key)), context) };
}

/**
 * Drops the candidates a policy file outside the paths declares now (moved there, say), so a run
 * over some paths does not clear what a run over others creates. The rest of the repository is
 * read only when there is a candidate. Those files are not this run's to check: one that cannot be
 * read declares nothing, and one with errors declares every key that can be made out in it
 * (keeping a scope is the safe side).
 */
async function notDeclaredElsewhere(candidates: PrunedPolicy[], context: PruneContext): Promise<PrunedPolicy[]> {
  if (candidates.length === 0) return candidates;
  const files = await policyFilesOutside(context.paths, context.cwd);
  if (files.length === 0) return candidates;
  const { sources } = await readPolicySources(files, context.cwd);
  const declared = new Set(sources.flatMap((source) => keysReadable(source, candidates, context.project.defaults?.scopeType)));
  return candidates.filter((policy) => !declared.has(policy.key));
}

/** The policy files of the repository around `cwd` (loader's discovery rules) that no path covers. */
async function policyFilesOutside(paths: readonly string[], cwd: string): Promise<string[]> {
  const root = (await repositoryRoot(path.resolve(cwd))) ?? cwd;
  const given = paths.map((given) => path.resolve(cwd, given));
  if (given.some((covered) => isInside(covered, root))) return [];
  const { files } = await discoverPolicyFiles([root], cwd);
  return files.filter((file) => !given.some((covered) => isInside(covered, file)));
}

/**
 * The keys a file declares, read leniently: at a glance, else from every document the parser
 * could read (schema errors or not). A YAML error hides its document, and a document without a
 * scopeType (and no default) names no type, so then a candidate whose scope shows on a `scope:`
 * line counts too, whatever its scopeType.
 */
function keysReadable(source: PolicySource, candidates: readonly PrunedPolicy[], scopeType: string | undefined): ScopeKey[] {
  const glance = scopesAtAGlance(source.text, scopeType);
  if (glance) return glance;
  const parsed = parsePolicyText(source);
  const named = parsed.documents.map(({ data }) => ({ scope: data.scope, type: data.scopeType ?? scopeType }));
  const keys = named.flatMap(({ scope, type }) => (typeof scope === 'string' && typeof type === 'string' ? [scopeKey({ scopeType: type, scope })] : []));
  const untyped = named.some(({ scope, type }) => typeof scope === 'string' && type === undefined);
  if (parsed.diagnostics.length === 0 && !untyped) return keys;
  const mentioned = scopesMentioned(source.text);
  return [...keys, ...candidates.filter((policy) => mentioned.has(policy.scope)).map((policy) => policy.key)];
}

const SCOPE_LINE = /^[ \t-]*["']?scope["']?[ \t]*:[ \t]*["']?([^"'#\s]+)/;

/** Every value of a line that reads like `scope: VALUE`, wherever it stands. */
function scopesMentioned(text: string): Set<string> {
  return new Set(text.split(/\r?\n/).flatMap((line) => SCOPE_LINE.exec(line)?.[1] ?? []));
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

/**
 * Policies at revision `rev` whose scope has no policy now. The old revision's errors cannot
 * block today's run: they come back as warnings, and the scopes they affect are not pruned.
 */
async function prunedSince(rev: string, context: PruneContext, declared: ReadonlySet<ScopeKey>): Promise<Pruned> {
  if (isNullRevision(rev)) return NOTHING_PRUNED;
  const sources: PolicySource[] = await readPolicySourcesAt(rev, context.paths, context.cwd);
  const then = parsePolicySources(sources, { project: context.project });
  const diagnostics = then.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d): Diagnostic => ({ ...d, severity: 'warning', message: `at --prune-from ${rev}: ${d.message}` }));
  return { pruned: then.policies.filter((policy) => !declared.has(policy.key)), diagnostics };
}

/** `prune.keep` of the project file as scope keys (the schema checked their TYPE/ID form). */
function keptScopes(project: ProjectConfig): Set<ScopeKey> {
  return new Set((project.prune?.keep ?? []).map((entry) => scopeKey(parseScopeKey(entry))));
}
