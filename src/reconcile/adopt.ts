/**
 * `adopt`: the scopes a plan found changed outside this repository (drift) are written into their
 * policy files as they are live, each file edited once, minimally (policy/adopt.ts), so the change
 * can be reviewed and merged as a pull request. A conflict (changed here and outside) is not
 * adopted: which side wins is for a person to decide, and it is listed.
 */
import path from 'node:path';
import { adoptText, type AdoptTarget } from '../policy/adopt.js';
import { MAX_FILE_BYTES } from '../policy/index.js';
import { readRegularFile, realRoot, repositoryRoot, writeFileAtomic } from '../files.js';
import type { OutsideChange } from '../plan/types.js';
import type { Plan } from '../plan/types.js';
import type { SourcePos } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';

/** One scope changed outside: where it is declared, its live domains and what changed. */
export interface Drifted {
  key: ScopeKey;
  source: SourcePos;
  live: string[];
  outside: OutsideChange;
}

export interface AdoptResult {
  /** The scopes written into their files, by key. */
  adopted: Drifted[];
  /** The files rewritten, as the plan names them (relative to cwd). */
  files: string[];
  /** Scopes changed on both sides: left for a person, by key. */
  conflicts: ScopeKey[];
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
 * Writes the live state of every drifted scope of `plan` into its policy file.
 * @param cwd the directory the plan's file names are relative to
 */
export async function adoptDrift(plan: Pick<Plan, 'changes' | 'drift' | 'redacted'>, cwd: string): Promise<AdoptResult> {
  const { drifted, conflicts } = driftedScopes(plan);
  const secret = drifted.find((entry) => plan.redacted?.includes(entry.key));
  // Its live state holds a secret the service echoed: written into a file, it would be committed.
  if (secret) throw new Error(`adopt: the live state of ${secret.key} holds a secret; it is not written into a policy file`);
  const byFile = new Map<string, Drifted[]>();
  for (const entry of drifted) byFile.set(entry.source.file, [...(byFile.get(entry.source.file) ?? []), entry]);
  const root = await realRoot((await repositoryRoot(cwd)) ?? cwd);
  for (const [file, entries] of byFile) {
    const absolute = path.resolve(cwd, file);
    const text = (await readRegularFile(absolute, { maxBytes: MAX_FILE_BYTES, root, what: 'policy file' })).toString('utf8');
    await writeFileAtomic(absolute, adoptText({ file, text }, entries.map(targetOf)));
  }
  return { adopted: drifted, files: [...byFile.keys()], conflicts };
}

function targetOf(entry: Drifted): AdoptTarget {
  const name = entry.outside.fields.find((field) => field.field === 'scopeName');
  const target: AdoptTarget = { line: entry.source.line, domains: entry.live };
  if (name && typeof name.after === 'string') target.scopeName = name.after;
  return target;
}
