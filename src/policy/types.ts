import type { ScopeKey } from '../scope.js';

/** A position in a policy or project file; line and column are 1-based. */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

export type Severity = 'error' | 'warning';

/** One finding about an input file, printed as `file:line:column: severity: message`. */
export interface Diagnostic extends SourcePos {
  severity: Severity;
  /** Stable machine-readable id, e.g. `webmail-domain`, `unknown-key`, `duplicate-scope`. */
  code: string;
  message: string;
}

/**
 * One scope's desired autojoin state, as declared in a policy file, after defaults
 * from the project file and domain normalization (lower case, punycode, no trailing dot,
 * sorted, de-duplicated).
 */
export interface Policy {
  key: ScopeKey;
  scope: string;
  scopeType: string;
  scopeName?: string;
  componentId: string;
  /** Free-form data for the autojoin invitation; absent when the file leaves it out (then not managed). */
  metadata?: Record<string, unknown>;
  domains: string[];
  /** Where the policy's document starts. */
  source: SourcePos;
  /** True when the file says `domains: []`: the author asked to clear this scope. */
  explicitEmpty: boolean;
  /** What a plan does with a change made outside this repository; absent: the project file's, else `revert`. */
  drift?: DriftMode;
}

/** `revert`: apply restores the files' state; `keep`: a scope changed outside is left as it is live (README, "Drift"). */
export type DriftMode = 'revert' | 'keep';

/** Safety limits and defaults from the optional project file `autojoin-sync.yaml`. */
export interface ProjectConfig {
  /** Absolute path of the project file, when there is one. */
  file?: string;
  /** Marks every write (`autojoin-sync.owner`); a scope marked by another owner is never written. Default `default`. */
  owner?: string;
  baseUrl?: string;
  /** How live state is read (`--read` and AUTOJOIN_READ win; src/run/settings.ts). */
  read?: 'by-group' | 'by-scope' | 'autojoin';
  /** The old name of `read`, kept for one release. */
  listing?: 'by-group' | 'by-scope' | 'autojoin';
  defaults?: { componentId?: string; scopeType?: string };
  safety?: {
    /** Most domains one run may remove across all scopes (CLI `--max-removals` wins). */
    maxRemovals?: number;
    /** Most of one scope's existing domains, in percent, a run may remove. */
    maxRemovalPercent?: number;
  };
  /** What plans do with changes made outside this repository (a policy file's `drift` wins). */
  drift?: DriftMode;
  prune?: {
    /** Clear every scope git history declared under the paths and no file declares now (as `--prune`). */
    history?: boolean;
    /** `TYPE/ID` of scopes released from management: never pruned, their live autojoin left alone. */
    keep?: string[];
  };
  /** Domain trust over DNS (src/run/dns.ts): on for validate and plan with `check`, or `--dns`. */
  dns?: {
    check?: boolean;
    /** Resolvers (`HOST[:PORT]`); `--dns-server` wins, AUTOJOIN_DNS_SERVERS comes after. */
    servers?: string[];
    /** `txt`: every domain must publish `autojoin-sync-verification=TOKEN`. */
    verify?: 'txt';
    token?: string;
    /** Timeouts and resolver failures are errors (as `--dns-strict`). */
    strict?: boolean;
    /** Seconds one lookup may take, retries included. */
    timeoutSeconds?: number;
    /** Seconds the whole check may take. */
    deadlineSeconds?: number;
  };
}

/** What the loader hands the rest of the program. */
export interface LoadResult {
  /** Valid policies, sorted by key; a scope with any error is left out. Empty when the loader handed them to `onPolicy`. */
  policies: Policy[];
  /** How many valid policies there are: `policies.length`, or as many as `onPolicy` took (and were not declared twice). */
  policyCount: number;
  diagnostics: Diagnostic[];
  /** Every policy file read, relative to cwd, sorted. */
  files: string[];
}

/** A policy file's text, wherever it came from (disk, or a git revision for --prune-from). */
export interface PolicySource {
  file: string;
  text: string;
}
