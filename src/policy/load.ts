/**
 * The loader: policy files in, a plain normalized desired state out. Every problem in
 * every file becomes a diagnostic (nothing stops at the first); a policy with any error
 * is left out of `policies`, everything else still loads.
 */
import { compareScopeKeys, scopeKey, type ScopeKey } from '../scope.js';
import { discoverPolicyFiles, relativePosix } from './discover.js';
import { checkDomain, withoutListedParent } from './domains.js';
import { compareDiagnostics, diagnosticAt } from './format.js';
import { duplicateScopeDiagnostics, type Declaration } from './lint.js';
import { locate } from './locate.js';
import { decodePolicyBytes, fileDiagnostic, MAX_FILE_BYTES, type ParsedDocument } from './parse.js';
import { parsePolicyText } from './plain.js';
import { realRoot, readRegularFileSync, repositoryRoot, type ReadOptions } from '../files.js';
import { schemaDiagnostics } from './schema.js';
import { scopeTextDiagnostics } from './scope-text.js';
import { secretDiagnostics, type NamedSecret } from './secrets.js';
import type { Diagnostic, LoadResult, Policy, PolicySource, ProjectConfig, SourcePos } from './types.js';
import { expiredOf, expiryDiagnostics, isExpired, placedEntries, ruleSubject, writtenEntries, type WrittenEntry } from './entries.js';
import { createGovernance, type Governance } from '../governance/check.js';
import { today } from '../governance/clock.js';
import { isPlainObject } from '../plain-object.js';

export interface LoadOptions {
  /** Directory paths are resolved against and reported relative to (default: process.cwd()). */
  cwd?: string;
  /** Defaults from the project file (see loadProjectConfig). */
  project?: ProjectConfig;
  /**
   * Takes each policy as soon as its file is checked, while later files are still being read (so
   * its live state can be read meanwhile). The loader then keeps none of them: the result lists
   * no policies, only `policyCount`. A scope that a later file declares again gets an error (and
   * is not counted), so a caller plans nothing from a load with errors.
   */
  onPolicy?: (policy: Policy) => void;
  /**
   * Takes the warnings of each batch of files as soon as it is checked (sorted by position); they
   * are then left out of the result, so a run over thousands of files does not hold them all.
   */
  onWarnings?: (warnings: readonly Diagnostic[]) => void | Promise<void>;
  /**
   * Awaited after each batch of files; `failed` says a file checked so far has an error (makePlan
   * then stops the reads it started: nothing will be planned).
   */
  onBatch?: (failed: boolean) => void | Promise<void>;
  /** The configured secrets: a file that holds one's value is an error and hands out no policy (secrets.ts). */
  secrets?: readonly NamedSecret[];
  /** Real paths every file must lie inside (src/run/place.ts); default: the repository around cwd, else cwd. */
  roots?: readonly string[];
  /** Today, YYYY-MM-DD: entries past their `expires` are not desired (default: the clock, or AUTOJOIN_NOW). */
  today?: string;
  /** Attach every domain entry with its place (`Policy.entries`), for who and inventory. */
  entries?: boolean;
  /** Check the project file's rules (loadPolicies: yes; parsePolicySources: only when asked, e.g. not for history). */
  rules?: boolean;
  /**
   * Sees each policy as soon as its file is checked, as `onPolicy` does, while the loader still
   * keeps them all for the result (validate starts its DNS lookups meanwhile).
   */
  onChecked?: (policy: Policy) => void;
}

// Reads are blocking calls (see readRegularFileSync); between batches of this many files or
// documents, whichever comes first (a few milliseconds of work), the event loop gets a turn, so
// timers and sockets, e.g. the live-state reads makePlan starts while loading, are served while
// thousands of files are read.
const READ_BATCH = 64;

/**
 * Discovers, reads, parses and checks the policy files under `paths`, a batch at a time.
 * @returns valid policies sorted by key, every diagnostic sorted by position, the files read
 */
export async function loadPolicies(paths: readonly string[], options: LoadOptions = {}): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd();
  const discovery = await discoverPolicyFiles(paths, cwd);
  const checker = createPolicyChecker(options.project ?? {}, { ...checkOptions(options), keep: !options.onPolicy, complete: true });
  const readDiagnostics: Diagnostic[] = [];
  const betweenBatches = async (): Promise<void> => {
    const warnings = options.onWarnings && checker.takeWarnings();
    if (warnings && warnings.length > 0) await options.onWarnings?.(warnings);
    await options.onBatch?.(checker.failed() || readDiagnostics.some((d) => d.severity === 'error'));
  };
  const take = (result: PolicySource | Diagnostic): number => {
    if (!('text' in result)) {
      readDiagnostics.push(result);
      return 1;
    }
    const policies = checker.check(result);
    for (const policy of policies) {
      options.onPolicy?.(policy);
      options.onChecked?.(policy);
    }
    return Math.max(1, policies.length);
  };
  await readInBatches(discovery.files, { cwd, roots: options.roots }, take, betweenBatches);
  const result = checker.finish();
  const files = discovery.files.map((file) => relativePosix(cwd, file));
  const diagnostics = [...discovery.diagnostics, ...readDiagnostics, ...result.diagnostics].sort(compareDiagnostics);
  return { policies: result.policies, policyCount: result.policyCount, diagnostics, files };
}

/**
 * Reads files as strict UTF-8 under the size cap, through src/files.ts: regular files only, and
 * only inside `roots` (default: the repository around `cwd`, or `cwd` outside one); `file` in each source is relative to cwd.
 */
export async function readPolicySources(
  files: readonly string[],
  cwd: string,
  roots?: readonly string[],
): Promise<{ sources: PolicySource[]; diagnostics: Diagnostic[] }> {
  const sources: PolicySource[] = [];
  const diagnostics: Diagnostic[] = [];
  await readInBatches(files, { cwd, roots }, (result) => {
    if ('text' in result) sources.push(result);
    else diagnostics.push(result);
    return 1;
  });
  return { sources, diagnostics };
}

/**
 * Reads `files` in order, handing each to `take`, which says how much work the file was (its
 * documents); after every READ_BATCH of work (and the last file) `betweenBatches` runs and the
 * event loop gets a turn.
 */
async function readInBatches(
  files: readonly string[],
  where: { cwd: string; roots?: readonly string[] },
  take: (result: PolicySource | Diagnostic) => number,
  betweenBatches: () => Promise<void> = () => Promise.resolve(),
): Promise<void> {
  const { cwd } = where;
  const root = where.roots ?? [await realRoot((await repositoryRoot(cwd)) ?? cwd)];
  const options: ReadOptions = { maxBytes: MAX_FILE_BYTES, root, what: 'policy file', realDirectories: new Map() };
  let work = 0;
  for (const file of files) {
    if (work >= READ_BATCH) {
      work = 0;
      await betweenBatches();
      await new Promise(setImmediate);
    }
    work += take(readOne(file, relativePosix(cwd, file), options));
  }
  await betweenBatches();
}

function readOne(absolute: string, file: string, options: ReadOptions): PolicySource | Diagnostic {
  try {
    const decoded = decodePolicyBytes(file, readRegularFileSync(absolute, options));
    return decoded.ok ? { file, text: decoded.text } : decoded.diagnostic;
  } catch (error) {
    return fileDiagnostic(file, error);
  }
}

/**
 * Pure core of the loader, for text from anywhere (disk, or a git revision for --prune-from).
 * @returns policies sorted by key; diagnostics sorted by file and position
 */
export function parsePolicySources(
  sources: readonly PolicySource[],
  options: Pick<LoadOptions, 'project' | 'secrets' | 'today' | 'entries' | 'rules'> = {},
): LoadResult {
  const checker = createPolicyChecker(options.project ?? {}, { ...checkOptions({ ...options, rules: options.rules ?? false }), keep: true, complete: false });
  for (const source of sources) checker.check(source);
  return checker.finish();
}

/** Checks sources one at a time; `finish` adds what needs them all (duplicate scopes) and sorts. */
interface PolicyChecker {
  /** @returns the policies of `source` that have no error of their own */
  check(source: PolicySource): Policy[];
  /** @returns the warnings found since the last call, sorted; they are no longer kept */
  takeWarnings(): Diagnostic[];
  /** @returns whether any source checked so far has an error (duplicate scopes are found by `finish`) */
  failed(): boolean;
  finish(): LoadResult;
}

/** What every policy is checked with besides the project file. */
interface CheckOptions {
  secrets: readonly NamedSecret[];
  today: string;
  entries: boolean;
  rules: boolean;
}

function checkOptions(options: Pick<LoadOptions, 'secrets' | 'today' | 'entries' | 'rules'>): CheckOptions {
  return { secrets: options.secrets ?? [], today: options.today ?? today(), entries: options.entries ?? false, rules: options.rules ?? true };
}

/**
 * @param options.keep false: `check` returns each policy and keeps only its key (for the count),
 *   so a caller that takes them as they come holds memory flat in the number of scopes
 * @param options.secrets values no file may hold
 */
function createPolicyChecker(project: ProjectConfig, options: CheckOptions & { keep: boolean; complete: boolean }): PolicyChecker {
  const diagnostics: Diagnostic[] = [];
  const declarations: Declaration[] = [];
  const candidates: Policy[] = [];
  const candidateKeys: ScopeKey[] = [];
  const files = new Set<string>();
  const same = createInterner();
  const governance = options.rules ? createGovernance(project.rules, { today: options.today, complete: options.complete }) : null;
  const reading: Reading = { project, same, today: options.today, entries: options.entries, governance };
  let failed = false;
  const record = (found: readonly Diagnostic[]): void => {
    diagnostics.push(...found);
    failed ||= found.some((diagnostic) => diagnostic.severity === 'error');
  };
  return {
    check(source) {
      files.add(source.file);
      const parsed = parsePolicyText(source);
      record(parsed.diagnostics);
      const leaked = secretDiagnostics(source, parsed.documents, options.secrets);
      record(leaked);
      const found: Policy[] = [];
      for (const document of parsed.documents) {
        const result = readPolicy(document, reading);
        record(result.diagnostics);
        if (result.declaration) declarations.push(result.declaration);
        if (result.policy && leaked.length === 0) found.push(result.policy);
      }
      if (options.keep) candidates.push(...found);
      else candidateKeys.push(...found.map((policy) => policy.key));
      return found;
    },
    failed: () => failed,
    takeWarnings() {
      const warnings = diagnostics.filter((diagnostic) => diagnostic.severity !== 'error');
      const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
      diagnostics.splice(0, diagnostics.length, ...errors);
      return warnings.sort(compareDiagnostics);
    },
    finish() {
      // What needs every file: duplicate scopes, and the rules that count across scopes.
      const across = [...duplicateScopeDiagnostics(declarations), ...(governance?.finish(declarations.map((declaration) => declaration.key)) ?? [])];
      const declared = new Map<string, number>();
      for (const { key } of declarations) declared.set(key, (declared.get(key) ?? 0) + 1);
      const once = (key: ScopeKey): boolean => declared.get(key) === 1;
      const policies = candidates.filter((policy) => once(policy.key)).sort((a, b) => compareScopeKeys(a.key, b.key));
      const policyCount = options.keep ? policies.length : candidateKeys.filter(once).length;
      return { policies, policyCount, diagnostics: [...diagnostics, ...across].sort(compareDiagnostics), files: [...files].sort() };
    },
  };
}

interface PolicyReading {
  declaration?: Declaration;
  policy?: Policy;
  diagnostics: Diagnostic[];
}

/**
 * @returns a function giving one copy of each distinct string: thousands of policies name the same
 * scopeType and componentId, and each parse makes its own copy
 */
function createInterner(): (value: string) => string {
  const seen = new Map<string, string>();
  return (value) => {
    const known = seen.get(value);
    if (known !== undefined) return known;
    seen.set(value, value);
    return value;
  };
}

/** What reading a document needs besides the document. */
interface Reading {
  project: ProjectConfig;
  same: (value: string) => string;
  today: string;
  entries: boolean;
  governance: Governance | null;
}

/** Checks one document (defaults filled in first) and builds its policy when it has no error. */
function readPolicy(parsed: ParsedDocument, reading: Reading): PolicyReading {
  const { same } = reading;
  const data = withDefaults(parsed.data, reading.project);
  const written = writtenEntries(data.domains);
  const at = (index: number): SourcePos => locate(parsed, ['domains', index]);
  // The document's own scope and scopeType: a default from the project file is checked there, once.
  const diagnostics = [
    ...schemaDiagnostics('policy', parsed, data),
    ...scopeTextDiagnostics(parsed, SCOPE_PATHS),
    ...domainDiagnostics(written, at),
    ...expiryDiagnostics(written, reading.today, at),
  ];
  const { scope, scopeType } = data;
  const declaration =
    typeof scope === 'string' && typeof scopeType === 'string' && scope !== '' && scopeType !== ''
      ? { key: scopeKey({ scopeType: same(scopeType), scope }), source: parsed.start }
      : undefined;
  if (!declaration || diagnostics.some((d) => d.severity === 'error')) return { declaration, diagnostics };
  const desired = written.filter((entry) => !isExpired(entry, reading.today));
  const policy: Policy = {
    key: declaration.key,
    scope: scope as string,
    scopeType: same(scopeType as string),
    ...(typeof data.scopeName === 'string' ? { scopeName: data.scopeName } : {}),
    componentId: same(data.componentId as string),
    ...(isPlainObject(data.metadata) ? { metadata: data.metadata } : {}),
    domains: [...new Set(desired.map((entry) => entry.domain))].sort(),
    source: parsed.start,
    explicitEmpty: desired.length === 0,
    ...expiredOf(written, reading.today),
    ...(data.drift === 'keep' || data.drift === 'revert' ? { drift: data.drift } : {}),
  };
  if (reading.entries) policy.entries = placedEntries(written, reading.today, at);
  if (!reading.governance) return { declaration, policy, diagnostics };
  const place = (where: number | 'domains'): SourcePos => (where === 'domains' ? locate(parsed, ['domains'], 'key') : at(where));
  const findings = reading.governance.check(ruleSubject(policy.key, desired, place, Array.isArray(data.domains) && data.domains.length === 0));
  diagnostics.push(...findings);
  // A rule's error keeps the policy from being planned, as any other error does.
  return findings.some((d) => d.severity === 'error') ? { declaration, diagnostics } : { declaration, policy, diagnostics };
}

const SCOPE_PATHS = [['scope'], ['scopeType']] as const;

// Literals rather than spreading a defaults object built key by key: the same object, ~10× faster in V8.
// Without a default, a key the document leaves out stays out: the schema reports it missing.
function withDefaults(data: Record<string, unknown>, project: ProjectConfig): Record<string, unknown> {
  const { scopeType, componentId } = project.defaults ?? {};
  if (scopeType === undefined) return componentId === undefined ? data : { componentId, ...data };
  return componentId === undefined ? { scopeType, ...data } : { scopeType, componentId, ...data };
}

/**
 * Per-domain checks, then duplicates after normalization (an error at every occurrence).
 * A domain is located in the file only when there is something to report: most are fine.
 */
function domainDiagnostics(entries: readonly WrittenEntry[], at: (index: number) => SourcePos): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, number[]>();
  for (const { raw, index, domain: normalized } of entries) {
    for (const finding of checkDomain(raw)) diagnostics.push(diagnosticAt(at(index), finding.severity, finding.code, finding.message));
    if (normalized === '') continue;
    const indexes = seen.get(normalized);
    if (indexes) indexes.push(index);
    else seen.set(normalized, [index]);
  }
  for (const [domain, indexes] of seen) {
    if (indexes.length > 1) diagnostics.push(...duplicateDomainDiagnostics(domain, indexes.map(at)));
  }
  return diagnostics.map((d) => (d.code === 'subdomain' ? { ...d, message: withoutListedParent(d.message, seen) } : d));
}

function duplicateDomainDiagnostics(domain: string, positions: readonly SourcePos[]): Diagnostic[] {
  return positions.map((pos) => {
    const others = positions.filter((other) => other !== pos).map((other) => other.line);
    const message = `duplicate domain ${domain} (also at ${others.length > 1 ? 'lines' : 'line'} ${others.join(', ')})`;
    return diagnosticAt(pos, 'error', 'duplicate-domain', message);
  });
}
