/** What a saved plan records of the run it was made in: its context, and each project's of a plan of several. */
import type { ScopeKey } from '../scope.js';

/**
 * One project of a plan of several (design: "Many projects, one run"): its context, as `context`
 * records a plan of one. `name` is what its entries' `project` says: its project file's path, else
 * its directory (`.` for the repository root).
 */
export interface PlanProject {
  name: string;
  /** Its project file, or null for the policy files that have none. */
  projectFile: ProjectFileRecord | null;
  /** The directory it governs, relative to the repository root (`.` for the root). */
  root: string;
  /** The owner its writes mark their scopes with. */
  owner: string;
  limits: SafetyLimits;
  rules: unknown[];
  /** Scopes of this project the plan takes over (`--take-ownership`). */
  takeOwnership: ScopeKey[];
}

/** The project file as a run context records it: its path from the repository root and its sha256. */
export interface ProjectFileRecord {
  /** Relative to the repository root (outside git: to the run's directory), `/`-separated. */
  path: string;
  /** sha256 of the file's bytes, 64 lower-case hex characters. */
  sha256: string;
}

/**
 * The run context a saved plan was made in (design, "The run context"): `apply --plan` rebuilds
 * its own from it and refuses a mismatch. Owner and target are the plan's own top-level fields.
 */
export interface PlanContext {
  /** The project file used, or null when the run had none. */
  projectFile: ProjectFileRecord | null;
  /** The safety limits the plan was checked against (flags included). */
  limits: SafetyLimits;
  /** The project file's rules (as read), or [] without any. */
  rules: unknown[];
  /** The UTC day the plan was made for (AUTOJOIN_NOW in tests). */
  today: string;
  /** The commit HEAD pointed to; null outside git. Informative only: a plan is matched by content, never by ancestry. */
  head: string | null;
  /** Scopes this plan takes over (`--take-ownership`): apply needs the flag for each of them again. */
  takeOwnership: ScopeKey[];
}

/** Limits checked on a plan before anything is written. */
export interface SafetyLimits {
  maxRemovals?: number;
  maxRemovalPercent?: number;
  allowEmpty?: boolean;
}
