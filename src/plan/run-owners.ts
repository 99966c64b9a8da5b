/**
 * The owners of the projects of one run (design: "Many projects, one run"): a scope marked by one
 * of them and declared now by another project of the run moves without a take-over. Pure: each
 * run hands its owners in (RunSettings.runOwners), so nothing is kept between runs of one process.
 */
import { DEFAULT_OWNER } from './ownership.js';

/**
 * Whether a marker written by `from` (from a commit of this history) moves to `owner` without a
 * take-over: `default` (a project file that named no owner), or another project's owner of this
 * run (a scope moved between the projects of one repository). Its own owner is no move.
 * @param runOwners the owners of the run's projects (empty for a run of one)
 */
export function movesFrom(from: string, owner: string, runOwners: ReadonlySet<string> = new Set()): boolean {
  return from !== owner && (from === DEFAULT_OWNER || runOwners.has(from));
}
