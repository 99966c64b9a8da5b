/**
 * The owners of the projects of one run (design: "Many projects, one run"): a scope marked by one
 * of them and declared now by another project of the run moves without a take-over.
 */
import { DEFAULT_OWNER } from './ownership.js';

// The owners of the projects of this run (design: "Many projects, one run"; set once per run by src/run/settings.ts).
let runOwners: ReadonlySet<string> = new Set();

/** Sets the owners of the run's projects: a scope marked by one of them, planned by another project of the run, moves (moveFrom). */
export function useRunOwners(owners: readonly string[]): void {
  runOwners = new Set(owners);
}

/**
 * Whether a marker written by `from` (from a commit of this history) moves to `owner` without a
 * take-over: `default` (a project file that named no owner), or another project's owner of this
 * run (a scope moved between the projects of one repository). Its own owner is no move.
 */
export function movesFrom(from: string, owner: string): boolean {
  return from !== owner && (from === DEFAULT_OWNER || runOwners.has(from));
}
