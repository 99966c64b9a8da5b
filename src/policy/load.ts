/**
 * The loader: policy files in, a plain normalized desired state out. Every problem in
 * every file becomes a diagnostic (nothing stops at the first); a policy with any error
 * is left out of `policies`, everything else still loads.
 */
import path from 'node:path';
import { compareScopeKeys, type ScopeKey } from '../scope.js';
import { discoverPolicyFiles, type Discovery } from './discover.js';
import { relativePosix } from '../relative-path.js';
import { compareDiagnostics } from './format.js';
import { duplicateScopeDiagnostics, type Declaration } from './lint.js';
import { decodePolicyBytes, fileDiagnostic, MAX_FILE_BYTES } from './parse.js';
import { parsePolicyText } from './plain.js';
import { realRoot, readRegularFileSync, repositoryRoot, type ReadOptions } from '../files.js';
import { secretDiagnostics, type NamedSecret } from './secret-scan.js';
import type { Diagnostic, LoadResult, Policy, PolicySource, ProjectConfig } from './types.js';
import { createGovernance } from './rule-check.js';
import { today } from './clock.js';
import { createInterner, readPolicy, type Reading } from './document.js';
import { projectLookup, type ProjectScope } from './project-scope.js';

export interface LoadOptions {
  /** Directory paths are resolved against and reported relative to (default: process.cwd()). */
  cwd?: string;
  /** Defaults from the project file (see loadProjectConfig). */
  project?: ProjectConfig;
  /** A run of several projects: each file under the nearest project at or above it (project-scope.ts), in place of `project`. */
  projects?: readonly ProjectScope[];
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
   * Sees each policy as soon as its file is checked, while loadPolicies still keeps them all for
   * the result (validate starts its DNS lookups meanwhile).
   */
  onChecked?: (policy: Policy) => void;
}

/** One batch of checked files, as {@link streamPolicies} yields it. */
export interface PolicyBatch {
  /** The batch's policies that have no error of their own (a scope a later file declares again still fails the load). */
  policies: Policy[];
  /** The batch's warnings, sorted by position; the load's result leaves them out. */
  warnings: Diagnostic[];
  /** Some file checked so far has an error: nothing will be planned from this load. */
  failed: boolean;
}

// Reads are blocking calls (see readRegularFileSync); between batches of this many files or
// documents, whichever comes first (a few milliseconds of work), the event loop gets a turn, so
// timers and sockets, e.g. the live-state reads makePlan starts while loading, are served while
// thousands of files are read.
const READ_BATCH = 64;
/**
 * The first batches are smaller. Their files are checked by code not yet compiled (about 1 ms a
 * file in a fresh process, against 0.2-0.3 ms later), the first live reads wait for the first
 * one, and the reads it starts need the event loop (to connect and send) before the next batch
 * blocks it: a window's worth (the default --concurrency) at a time keeps them going.
 */
export const SMALL_BATCHES = 8;
const SMALL_BATCH = 16;

/**
 * Discovers, reads, parses and checks the policy files under `paths`, a batch at a time.
 * @returns valid policies sorted by key, every diagnostic sorted by position, the files read
 */
export async function loadPolicies(paths: readonly string[], options: LoadOptions = {}): Promise<LoadResult> {
  const batches = policyBatches(paths, options, true);
  for (let next = await batches.next(); ; next = await batches.next()) {
    if (next.done) return next.value;
    if (options.onChecked) next.value.policies.forEach(options.onChecked);
  }
}

/**
 * The loader as a stream (makePlan's): yields each batch of files as soon as it is checked, and
 * keeps neither its policies nor its warnings, so a caller that takes them as they come holds
 * memory flat in the number of scopes.
 * @returns the load's result: no policies (only `policyCount`, which leaves out a scope declared
 *   twice) and every diagnostic but the batches' warnings
 */
export function streamPolicies(paths: readonly string[], options: Omit<LoadOptions, 'onChecked'> = {}): AsyncGenerator<PolicyBatch, LoadResult, undefined> {
  return policyBatches(paths, options, false);
}

/** @param keep true: keep the policies and warnings for the result (loadPolicies); false: hand them out only (streamPolicies) */
async function* policyBatches(paths: readonly string[], options: LoadOptions, keep: boolean): AsyncGenerator<PolicyBatch, LoadResult, undefined> {
  const discovery = await discoverPolicyFiles(paths, options.cwd ?? process.cwd());
  return yield* discoveredBatches(discovery, options, keep);
}

/**
 * The loader past discovery: reads and checks the files found, a batch at a time (the load
 * worker, load-worker.ts, runs this in its thread over the files the main thread found).
 */
export async function* discoveredBatches(discovery: Discovery, options: LoadOptions, keep: boolean): AsyncGenerator<PolicyBatch, LoadResult, undefined> {
  const cwd = options.cwd ?? process.cwd();
  const checker = createPolicyChecker(projectLookup(options, cwd), { ...checkOptions(options), keep, complete: true });
  const read = await fileReader(cwd, options.roots);
  const readDiagnostics: Diagnostic[] = [];
  let policies: Policy[] = [];
  let work = 0;
  let batches = 0;
  const batch = (): PolicyBatch => {
    const failed = checker.failed() || readDiagnostics.some((d) => d.severity === 'error');
    const taken = { policies, warnings: keep ? [] : checker.takeWarnings(), failed };
    policies = [];
    work = 0;
    batches += 1;
    return taken;
  };
  for (const file of discovery.files) {
    if (work >= (batches < SMALL_BATCHES ? SMALL_BATCH : READ_BATCH)) {
      yield batch();
      await ioTurn();
    }
    const result = read(file);
    if (!('text' in result)) readDiagnostics.push(result);
    const found = 'text' in result ? checker.check(result) : [];
    policies.push(...found);
    work += Math.max(1, found.length);
  }
  yield batch();
  const result = checker.finish();
  const diagnostics = [...discovery.diagnostics, ...readDiagnostics, ...result.diagnostics].sort(compareDiagnostics);
  return { policies: result.policies, policyCount: result.policyCount, diagnostics, files: discovery.files };
}

/**
 * Lets the event loop poll for I/O once before the next blocking batch: a setImmediate alone
 * runs in the same turn's check phase, before the sockets the last batch's reads opened are
 * connected and written to.
 */
function ioTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Reads files as strict UTF-8 under the size cap, through src/files.ts: regular files only, and
 * only inside `roots` (default: the repository around `cwd`, or `cwd` outside one); `file` in each source is relative to cwd.
 * @param files absolute, or relative to `cwd` as discovery names them (discover.ts)
 */
export async function readPolicySources(
  files: readonly string[],
  cwd: string,
  roots?: readonly string[],
): Promise<{ sources: PolicySource[]; diagnostics: Diagnostic[] }> {
  const sources: PolicySource[] = [];
  const diagnostics: Diagnostic[] = [];
  const read = await fileReader(cwd, roots);
  for (const [index, file] of files.entries()) {
    if (index > 0 && index % READ_BATCH === 0) await ioTurn();
    const result = read(file);
    if ('text' in result) sources.push(result);
    else diagnostics.push(result);
  }
  return { sources, diagnostics };
}

/**
 * @returns a blocking reader of one policy file as a source named relative to `cwd`, or its diagnostic;
 *   the file is given by its absolute path, or relative to `cwd` as discovery names it (then that string is the source's name)
 */
async function fileReader(cwd: string, roots: readonly string[] | undefined): Promise<(file: string) => PolicySource | Diagnostic> {
  const root = roots ?? [await realRoot((await repositoryRoot(cwd)) ?? cwd)];
  const options: ReadOptions = { maxBytes: MAX_FILE_BYTES, root, what: 'policy file', realDirectories: new Map() };
  return (given) => {
    const absolute = path.resolve(cwd, given);
    const file = path.isAbsolute(given) ? relativePosix(cwd, given) : given;
    try {
      const decoded = decodePolicyBytes(file, readRegularFileSync(absolute, options));
      return decoded.ok ? { file, text: decoded.text } : decoded.diagnostic;
    } catch (error) {
      return fileDiagnostic(file, error);
    }
  };
}

/**
 * Pure core of the loader, for text from anywhere (disk, or a git revision for --prune-from).
 * @returns policies sorted by key; diagnostics sorted by file and position
 */
export function parsePolicySources(
  sources: readonly PolicySource[],
  options: Pick<LoadOptions, 'project' | 'secrets' | 'today' | 'entries' | 'rules'> = {},
): LoadResult {
  const project = options.project ?? {};
  const checker = createPolicyChecker(() => project, { ...checkOptions({ ...options, rules: options.rules ?? false }), keep: true, complete: false });
  for (const source of sources) checker.check(source);
  return { ...checker.finish(), files: [...new Set(sources.map((source) => source.file))].sort() };
}

/** Checks sources one at a time; `finish` adds what needs them all (duplicate scopes) and sorts. */
interface PolicyChecker {
  /** @returns the policies of `source` that have no error of their own */
  check(source: PolicySource): Policy[];
  /** @returns the warnings found since the last call, sorted; they are no longer kept */
  takeWarnings(): Diagnostic[];
  /** @returns whether any source checked so far has an error (duplicate scopes are found by `finish`) */
  failed(): boolean;
  /** The load's result but its files, which each caller knows (discovery's list, or the sources given). */
  finish(): Omit<LoadResult, 'files'>;
}

/** @returns the keys more than one declaration names (usually none). */
function keysDeclaredTwice(declarations: readonly Declaration[]): Set<ScopeKey> {
  const seen = new Set<ScopeKey>();
  const twice = new Set<ScopeKey>();
  for (const { key } of declarations) {
    if (seen.has(key)) twice.add(key);
    else seen.add(key);
  }
  return twice;
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
function createPolicyChecker(projectFor: (file: string) => ProjectConfig, options: CheckOptions & { keep: boolean; complete: boolean }): PolicyChecker {
  const diagnostics: Diagnostic[] = [];
  const declarations: Declaration[] = [];
  const candidates: Policy[] = [];
  const candidateKeys: ScopeKey[] = [];
  const same = createInterner();
  // One reading a project: its defaults, and its rules over its own scopes (keys: what they declare, for the rules that count).
  const readings = new Map<ProjectConfig, { reading: Reading; keys: ScopeKey[] }>();
  const readingOf = (project: ProjectConfig): { reading: Reading; keys: ScopeKey[] } => {
    const known = readings.get(project);
    if (known) return known;
    const governance = options.rules ? createGovernance(project.rules, { today: options.today, complete: options.complete }) : null;
    const made = { reading: { project, same, today: options.today, entries: options.entries, governance }, keys: [] };
    readings.set(project, made);
    return made;
  };
  let failed = false;
  const record = (found: readonly Diagnostic[]): void => {
    diagnostics.push(...found);
    failed ||= found.some((diagnostic) => diagnostic.severity === 'error');
  };
  return {
    check(source) {
      const parsed = parsePolicyText(source);
      record(parsed.diagnostics);
      const leaked = secretDiagnostics(source, parsed.documents, options.secrets);
      record(leaked);
      const found: Policy[] = [];
      const { reading, keys } = readingOf(projectFor(source.file));
      for (const document of parsed.documents) {
        const result = readPolicy(document, reading);
        record(result.diagnostics);
        if (result.declaration) declarations.push(result.declaration);
        if (result.declaration && reading.governance) keys.push(result.declaration.key);
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
      // What needs every file: duplicate scopes, and the rules that count across scopes. Only the
      // keys declared twice are grouped: this runs while a large plan's reads are behind the load.
      const twice = keysDeclaredTwice(declarations);
      const once = (key: ScopeKey): boolean => !twice.has(key);
      const ruled = [...readings.values()].flatMap(({ reading, keys }) => reading.governance?.finish(keys) ?? []);
      const across = [...duplicateScopeDiagnostics(declarations.filter((declaration) => !once(declaration.key))), ...ruled];
      const policies = candidates.filter((policy) => once(policy.key)).sort((a, b) => compareScopeKeys(a.key, b.key));
      const policyCount = options.keep ? policies.length : candidateKeys.filter(once).length;
      return { policies, policyCount, diagnostics: [...diagnostics, ...across].sort(compareDiagnostics) };
    },
  };
}

