/**
 * `adopt`: the scopes a plan found changed outside this repository (drift) are written into their
 * policy files as they are live, each file edited once, minimally (policy/adopt-edit.ts), so the change
 * can be reviewed and merged as a pull request. A conflict (changed here and outside) is not
 * adopted: which side wins is for a person to decide, and it is listed.
 *
 * What adopt writes passes the repository's own checks (docs/ownership-pruning-drift.md, "Drift"): each scope's edit is
 * tried on the file as it stands, the result is validated as `validate` would (domain checks and
 * the project file's rules included), and a file that was `fmt`-clean is formatted again so it
 * stays clean; an edit that would add an error is not made, and the scope is listed with why.
 * Only what is written is reported: domains and a managed name; live metadata is named as not
 * adopted. An edit that changes nothing is no adoption.
 */
import path from 'node:path';
import { adoptText, type AdoptTarget } from '../policy/adopt-edit.js';
import { formatPolicyText, MAX_FILE_BYTES, parsePolicySources, type NamedSecret } from '../policy/index.js';
import { readRegularFile, realRoot, repositoryRoot, writeFileAtomic } from '../files.js';
import type { OutsideChange } from '../plan/types.js';
import type { Plan } from '../plan/types.js';
import type { Diagnostic, Policy, ProjectConfig, SourcePos } from '../policy/types.js';
import { declaredCounts, type DeclaredCounts } from './adopt-counts.js';
import type { PolicyPlace } from './expired-since-plan.js';
import type { ScopeKey } from '../scope.js';

/** One scope changed outside: where it is declared, its live domains and what changed. */
export interface Drifted {
  key: ScopeKey;
  source: SourcePos;
  live: string[];
  outside: OutsideChange;
}

export interface AdoptResult {
  /** The scopes written into their files, by key, each with what was written. */
  adopted: Drifted[];
  /** The files rewritten, as the plan names them (relative to cwd). */
  files: string[];
  /** Scopes changed on both sides: left for a person, by key. */
  conflicts: ScopeKey[];
  /** Drifted scopes (or parts of them) not written, with why: an edit that would not validate, live metadata. */
  notAdopted: NotAdopted[];
}

/** A drifted scope (or its metadata) not written into its file, and why, as data: each front end names the files its own way (`notAdoptedReason`, src/render/describe.ts). */
export interface NotAdopted {
  key: ScopeKey;
  /** Where the scope is declared, as the plan names it. */
  source: SourcePos;
  /** The error the edit would add to the file; absent: its metadata changed outside, which is never adopted. */
  refusal?: Diagnostic;
}

/** What adopt checks a written file with: the run's project file and secrets. */
export interface AdoptChecks {
  project?: ProjectConfig;
  secrets?: readonly NamedSecret[];
  /** Today (YAML entries past their `expires` are not desired; rules' maxExpiryDays). */
  today?: string;
  /** Where the run's policy files are: `maxScopesPerDomain` counts an adopted domain in every other file too (adopt-counts.ts). */
  place?: PolicyPlace;
}

/** @returns the scopes of a plan changed outside only, and those changed on both sides. */
export function driftedScopes(plan: Pick<Plan, 'changes' | 'drift'>): { drifted: Drifted[]; conflicts: ScopeKey[] } {
  const entries = [
    ...plan.changes.filter((change) => change.origin !== undefined).map((change) => ({ key: change.key, origin: change.origin, source: change.source, live: change.before, outside: change.outside })),
    ...plan.drift,
  ];
  const drifted: Drifted[] = [];
  const conflicts: ScopeKey[] = [];
  for (const entry of entries) {
    if (entry.origin === 'conflict') conflicts.push(entry.key);
    else if (entry.source && entry.outside) drifted.push({ key: entry.key, source: entry.source, live: entry.live, outside: entry.outside });
  }
  return { drifted, conflicts };
}

/**
 * Writes the live state of every drifted scope of `plan` into its policy file, each edit checked.
 * @param cwd the directory the plan's file names are relative to
 */
export async function adoptDrift(plan: Pick<Plan, 'changes' | 'drift' | 'redacted'>, cwd: string, checks: AdoptChecks = {}): Promise<AdoptResult> {
  const { drifted, conflicts } = driftedScopes(plan);
  const secret = drifted.find((entry) => plan.redacted?.includes(entry.key));
  // Its live state holds a secret the service echoed: written into a file, it would be committed.
  if (secret) throw new Error(`adopt: the live state of ${secret.key} holds a secret; it is not written into a policy file`);
  const byFile = new Map<string, Drifted[]>();
  for (const entry of drifted) byFile.set(entry.source.file, [...(byFile.get(entry.source.file) ?? []), entry]);
  const root = await realRoot((await repositoryRoot(cwd)) ?? cwd);
  const result: AdoptResult = { adopted: [], files: [], conflicts, notAdopted: [] };
  const counts = drifted.length === 0 ? null : await declaredCounts(checks.place, checks.secrets);
  for (const [file, entries] of byFile) {
    const absolute = path.resolve(cwd, file);
    const text = (await readRegularFile(absolute, { maxBytes: MAX_FILE_BYTES, root, what: 'policy file' })).toString('utf8');
    const edited = adoptFile({ file, text }, entries, { ...checks, counts }, result);
    if (edited === text) continue;
    await writeFileAtomic(absolute, edited);
    result.files.push(file);
  }
  return result;
}

/** Each scope's edit in turn, kept only when the file still validates; @returns the file's new text */
function adoptFile(source: { file: string; text: string }, entries: readonly Drifted[], given: AdoptChecks & { counts: DeclaredCounts | null }, result: AdoptResult): string {
  const fmtClean = !formatPolicyText(source).changed;
  const checks = { ...given, previous: policiesOf(source, given).map((policy) => policy.key) };
  const errorsBefore = new Set(errorsOf(source, checks).map((diagnostic) => diagnostic.message));
  let current = source.text;
  // The last document first: an edit never moves the lines of the documents above it.
  for (const entry of [...entries].sort((a, b) => b.source.line - a.source.line)) {
    const written = writtenPart(entry);
    let candidate = adoptText({ file: source.file, text: current }, [targetOf(written)]);
    if (fmtClean) candidate = formatPolicyText({ file: source.file, text: candidate }).text ?? candidate;
    const metadata = entry.outside.fields.some((field) => field.field === 'metadata');
    if (metadata) result.notAdopted.push({ key: entry.key, source: entry.source });
    if (candidate === current) continue;
    const added = errorsOf({ file: source.file, text: candidate }, checks).find((diagnostic) => !errorsBefore.has(diagnostic.message));
    if (added) {
      result.notAdopted.push({ key: entry.key, source: entry.source, refusal: added });
      continue;
    }
    current = candidate;
    result.adopted.push(written);
  }
  if (current !== source.text) checks.counts?.replace(checks.previous, policiesOf({ file: source.file, text: current }, checks));
  return current;
}

type FileChecks = AdoptChecks & { counts: DeclaredCounts | null; previous: readonly ScopeKey[] };

/** @returns the file's errors as validate finds them, and the scopes it would hold over a rule's count with every other file's */
function errorsOf(source: { file: string; text: string }, checks: FileChecks): Diagnostic[] {
  const { diagnostics, policies } = parsePolicySources([source], { project: checks.project ?? {}, secrets: checks.secrets, rules: true, ...(checks.today ? { today: checks.today } : {}) });
  const at = new Map(policies.map((policy) => [policy.key, policy.source]));
  const counted = (checks.counts?.over(checks.previous, policies) ?? []).map(({ key, message }): Diagnostic => ({ ...(at.get(key) ?? { file: source.file, line: 1, column: 1 }), severity: 'error', code: 'rule-max-scopes', message }));
  return [...diagnostics.filter((diagnostic) => diagnostic.severity === 'error'), ...counted];
}

function policiesOf(source: { file: string; text: string }, checks: AdoptChecks): Policy[] {
  return parsePolicySources([source], { project: checks.project ?? {}, secrets: checks.secrets, ...(checks.today ? { today: checks.today } : {}) }).policies;
}

/** The part of a drifted scope adopt writes, so it reports only that: the domains and the name (metadata is not written). */
function writtenPart(entry: Drifted): Drifted {
  return { ...entry, outside: { ...entry.outside, fields: entry.outside.fields.filter((field) => field.field === 'scopeName') } };
}

function targetOf(entry: Drifted): AdoptTarget {
  const name = entry.outside.fields.find((field) => field.field === 'scopeName');
  const target: AdoptTarget = { line: entry.source.line, domains: entry.live };
  if (name && typeof name.after === 'string') target.scopeName = name.after;
  return target;
}
