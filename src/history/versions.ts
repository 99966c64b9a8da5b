/**
 * Reads past versions of policy files (from history.ts, or a revision) down to the scope keys
 * they declared, and nothing else: pruning needs a scope's key, its componentId (for the POST) and
 * where and when it left, never its old domains, name or metadata, so none of those can reach a
 * plan, a comment or a request.
 *
 * Each version is read as the loader read it then: under the project file of its own commit,
 * under the same size cap (a larger blob is never read: it declares nothing, with a warning),
 * through the same YAML reader and checks, and the secret check (a version holding a secret
 * declares nothing, with a warning that shows none of it). Versions are taken as the history walk
 * finds them and their blobs stream through one `cat-file` reader (git.ts) meanwhile, so memory
 * holds one blob at a time whatever the history holds, and git and parsing overlap.
 */
import { MAX_FILE_BYTES, parsePolicySources, parseProjectSource, type NamedSecret } from '../policy/index.js';
import { decodePolicyBytes } from '../policy/parse.js';
import { parsePolicyText } from '../policy/plain.js';
import type { Diagnostic, PolicySource, ProjectConfig } from '../policy/types.js';
import type { PrunedPolicy, RemovalCommit } from '../plan/types.js';
import { scopeKey, type ScopeKey } from '../scope.js';
import { checkRevision } from '../git/command.js';
import { readBlobs, streamBlobs, type BlobRead } from '../git/blobs.js';
import { openRepository, shownPath, type Repository } from '../git/repository.js';
import { historyPaths, versionsAt, type PastVersion } from './policy-tree.js';

/** The scopes past versions declared (each with the newest version's removal), and warnings. */
export interface PastScopes {
  scopes: Map<ScopeKey, PrunedPolicy>;
  diagnostics: Diagnostic[];
}

export interface PastOptions {
  /** The run's secrets: a version holding one's value declares nothing. */
  secrets: readonly NamedSecret[];
  /** Keys to leave out (declared now): a version declaring only those is not checked further. */
  isDeclared: (key: ScopeKey) => boolean;
  /** What the user asked for, first in git errors. */
  context: string;
}

/** Takes versions as they are found (`add`), and gives what they declared once all are in (`finish`). */
export interface PastScopeReader {
  add(version: PastVersion): void;
  finish(): Promise<PastScopes>;
}

/** One blob read under one project file: the newest version seen of it, and the keys it gave. */
interface Reading {
  version: PastVersion;
  keys: ScopeKey[] | null;
}

/** @returns a reader of past versions into the scopes they declared that `isDeclared` does not hold */
export function pastScopeReader(repository: Repository, options: PastOptions): PastScopeReader {
  const found: PastScopes = { scopes: new Map(), diagnostics: [] };
  const orders = new Map<ScopeKey, number>();
  const readings = new Map<string, Reading>();
  const projects = new Map<string | null, ProjectConfig>([[null, {}]]);
  const blobs = streamBlobs({ cwd: repository.dir, context: options.context, maxBytes: MAX_FILE_BYTES });
  const readProject = (blob: string): void => {
    projects.set(blob, {});
    blobs.read(blob, (read) => projects.set(blob, projectOf(read)));
  };
  const tooLarge = new Map<string, { version: PastVersion; size: number; count: number }>();
  const interpret = (reading: Reading, read: BlobRead): void => {
    const { version } = reading;
    reading.keys = [];
    if (read.kind === 'too-large') noteTooLarge(tooLarge, version, read.size);
    const decoded = read.kind === 'blob' ? decodePolicyBytes(version.file, read.bytes) : null;
    if (!decoded?.ok) return;
    const result = readVersion(repository, version, decoded.text, projects.get(version.project) ?? {}, options);
    if ('warning' in result) {
      found.diagnostics.push(result.warning);
      return;
    }
    reading.keys = result.scopes.map((policy) => policy.key);
    for (const policy of result.scopes) keep(found, orders, policy, version.order);
  };
  return {
    add(version) {
      const id = `${version.blob} ${version.project ?? ''}`;
      const known = readings.get(id);
      if (known) {
        newerVersion(found, orders, known, version);
        return;
      }
      const reading: Reading = { version, keys: null };
      readings.set(id, reading);
      if (!projects.has(version.project) && version.project !== null) readProject(version.project);
      blobs.read(version.blob, (read) => interpret(reading, read));
    },
    async finish() {
      await blobs.close();
      for (const large of tooLarge.values()) found.diagnostics.push(tooLargeWarning(repository, large));
      return found;
    },
  };
}

/** A blob already taken under this project file, seen again in a newer commit: its scopes were removed later. */
function newerVersion(found: PastScopes, orders: Map<ScopeKey, number>, known: Reading, version: PastVersion): void {
  if (known.version.order >= version.order) return;
  known.version = version;
  for (const key of known.keys ?? []) {
    const policy = found.scopes.get(key);
    if (policy) keep(found, orders, { ...policy, ...(version.removedBy ? { removedBy: version.removedBy } : {}) }, version.order);
  }
}

/** Keeps, per scope, the policy of the newest version that declared it. */
function keep(found: PastScopes, orders: Map<ScopeKey, number>, policy: PrunedPolicy, order: number): void {
  if ((orders.get(policy.key) ?? -1) >= order) return;
  orders.set(policy.key, order);
  found.scopes.set(policy.key, policy);
}

/** A past project file's settings; one that cannot be read, or has errors, gives no defaults. */
function projectOf(read: BlobRead): ProjectConfig {
  const decoded = read.kind === 'blob' ? decodePolicyBytes('autojoin-sync.yaml', read.bytes) : null;
  const parsed = decoded?.ok ? parseProjectSource({ file: 'autojoin-sync.yaml', text: decoded.text }, 'autojoin-sync.yaml') : null;
  if (!parsed || parsed.diagnostics.some((d) => d.severity === 'error')) return {};
  const { file: _file, ...config } = parsed.config;
  return config;
}

/** What one version gives: its scopes not declared now, or a warning. */
type VersionReading = { scopes: PrunedPolicy[] } | { warning: Diagnostic };

/**
 * Reads one version: first only the keys its documents name (the loader's YAML reader); only when
 * one of them is not declared now is it checked in full, as the loader checks a file, secrets included.
 */
function readVersion(repository: Repository, version: PastVersion, text: string, project: ProjectConfig, options: PastOptions): VersionReading {
  const named = parsePolicyText({ file: version.file, text }).documents.map(({ data }) => keyOf(data, project));
  if (named.every((key) => key === null || options.isDeclared(key))) return { scopes: [] };
  const checked = parsePolicySources([{ file: shownPath(repository, version.file), text }], { project, secrets: options.secrets });
  const leaked = checked.diagnostics.find((d) => d.code === 'secret-in-policy');
  if (leaked) return { warning: secretInHistory(leaked, version) };
  const scopes = checked.policies.filter((policy) => !options.isDeclared(policy.key));
  return {
    scopes: scopes.map((policy) => ({
      key: policy.key,
      scope: policy.scope,
      scopeType: policy.scopeType,
      componentId: policy.componentId,
      domains: [],
      source: policy.source,
      explicitEmpty: false,
      ...(version.removedBy ? { removedBy: version.removedBy } : {}),
    })),
  };
}

/** The key a document names once the project file's defaults fill in, as the loader reads it; null when it names none. */
export function keyOf(data: Record<string, unknown>, project: ProjectConfig): ScopeKey | null {
  const scopeType = 'scopeType' in data ? data.scopeType : project.defaults?.scopeType;
  const { scope } = data;
  return typeof scope === 'string' && typeof scopeType === 'string' && scope !== '' && scopeType !== '' ? scopeKey({ scopeType, scope }) : null;
}

/** @returns `commit 1a2b3c4d5e6f`, `the working tree` or `the revision`, for messages. */
function replacedBy(removedBy: RemovalCommit | undefined): string {
  if (!removedBy) return 'the revision';
  return removedBy.commit === 'working-tree' ? 'the working tree' : `commit ${removedBy.commit}`;
}

/** Versions over the size cap, one warning per file: the newest of them, and how many. */
function noteTooLarge(tooLarge: Map<string, { version: PastVersion; size: number; count: number }>, version: PastVersion, size: number): void {
  const known = tooLarge.get(version.file);
  const count = (known?.count ?? 0) + 1;
  tooLarge.set(version.file, known && known.version.order >= version.order ? { ...known, count } : { version, size, count });
}

function tooLargeWarning(repository: Repository, large: { version: PastVersion; size: number; count: number }): Diagnostic {
  const limit = `over the ${MAX_FILE_BYTES}-byte limit for a policy file`;
  const newest = `replaced by ${replacedBy(large.version.removedBy)}`;
  return {
    file: shownPath(repository, large.version.file),
    line: 1,
    column: 1,
    severity: 'warning',
    code: 'history-file-too-large',
    message:
      large.count === 1
        ? `the version of this file ${newest} is ${large.size} bytes, ${limit}: it declares nothing, so pruning cannot see its scopes`
        : `${large.count} versions of this file in git history are ${limit} (the newest, ${newest}, is ${large.size} bytes): they declare nothing, so pruning cannot see their scopes`,
  };
}

function secretInHistory(leaked: Diagnostic, version: PastVersion): Diagnostic {
  return {
    ...leaked,
    severity: 'warning',
    code: 'secret-in-history',
    message: `the version of this file replaced by ${replacedBy(version.removedBy)}: ${leaked.message}; that version declares nothing, and none of it is shown (the secret stays in git history: rotate it)`,
  };
}

/**
 * The policy files under `paths` (relative to `cwd`) as they were at `rev`, whole, for a reader
 * that needs a past state itself (drift's last applied state); the same file rule and size cap as
 * pruning (a larger file is left out), files named relative to `cwd`, sorted.
 * @throws GitRevisionError when git cannot read `rev`
 */
export async function readPolicySourcesAt(rev: string, paths: readonly string[], cwd: string): Promise<PolicySource[]> {
  const context = `git revision ${rev}`;
  checkRevision(rev, context);
  const repository = await openRepository(paths.length > 0 ? paths : ['.'], cwd, context);
  const historical = repository && historyPaths(repository, paths);
  if (!repository || !historical) return [];
  const files = new Map<string, string[]>();
  for (const { blob, file } of await versionsAt(repository, rev, historical, { order: 0, context })) files.set(blob, [...(files.get(blob) ?? []), file]);
  const sources: PolicySource[] = [];
  await readBlobs([...files.keys()], { cwd: repository.dir, context, maxBytes: MAX_FILE_BYTES }, (blob, read) => {
    const decoded = read.kind === 'blob' ? decodePolicyBytes(blob, read.bytes) : null;
    if (decoded?.ok) for (const file of files.get(blob) ?? []) sources.push({ file: shownPath(repository, file), text: decoded.text });
  });
  return sources.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
