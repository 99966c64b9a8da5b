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
  /**
   * The message as written when it names files besides its own (`duplicate-scope`'s other
   * declarations): its words and those files, named from the run's base as `file` is. `message` is
   * them joined (`wordMessage`, src/policy/format.ts); a front end that names files from elsewhere
   * renames them with `file` (src/render/shown-here.ts). Never in a JSON document: its `message` holds them.
   */
  parts?: readonly MessagePart[];
}

/** Words of a message, or a file it names, at a place (`file:line:col`) or whole. */
export type MessagePart = string | { file: string; line?: number; column?: number };

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
  /** True when the file says `domains: []`, or every entry has expired: the author asked to clear this scope. */
  explicitEmpty: boolean;
  /** What a plan does with a change made outside this repository; absent: the project file's, else `revert`. */
  drift?: DriftMode;
  /** Entries past their `expires` date: not desired, so a plan removes them (normalized, sorted); absent when none. */
  expired?: ExpiredEntry[];
  /** Every domain entry with its place in the file; only when the loader was asked (`LoadOptions.entries`: who, inventory). */
  entries?: DomainEntry[];
}

/** A domain entry whose `expires` date has passed. */
export interface ExpiredEntry {
  domain: string;
  /** The entry's `expires` date, YYYY-MM-DD. */
  expires: string;
}

/** One domain entry of a policy file as written: a string, or `{domain, expires, reason}`. */
export interface DomainEntry {
  /** Normalized (lower case, punycode). */
  domain: string;
  expires?: string;
  reason?: string;
  /** True when `expires` has passed: the plan removes it. */
  expired: boolean;
  /** Where the entry stands. */
  source: SourcePos;
}

/** A governance rule of the project file (`rules:`, schemas/project.schema.json). */
export interface Rule {
  name: string;
  /** `TYPE/ID` globs of the scopes the rule applies to; all when absent. */
  scopes?: string[];
  allow?: string[];
  deny?: string[];
  require?: string[];
  maxScopesPerDomain?: number;
  requireExpiry?: string[];
  maxExpiryDays?: number;
  level?: Severity;
  /** Where the rule stands in the project file (set by the project loader). */
  source?: SourcePos;
  /** Where each `scopes` glob stands (set by the project loader). */
  scopeSources?: SourcePos[];
}

/** `revert`: apply restores the files' state; `keep`: a scope changed outside is left as it is live (docs/ownership-pruning-drift.md, "Drift"). */
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
  /** Governance rules, checked by the loader (src/policy/rules.ts). */
  rules?: Rule[];
  /** What plans do with changes made outside this repository (a policy file's `drift` wins). */
  drift?: DriftMode;
  /** Pruning (on by default): `false` turns it off, as `--no-prune` does; the object form also lists scopes to keep. */
  prune?:
    | boolean
    | {
        /** Clear every scope git history declared under the paths and no file declares now (default true). */
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
  /** Whom to tell what a run did (src/notify): names of AUTOJOIN_NOTIFY_* variables, never a URL or a secret. */
  notify?: NotifyTargetConfig[];
}

/** The events a notification target can be sent (src/notify/events.ts). */
export type NotifyEventName = 'applied' | 'refused' | 'failed' | 'drift';

/** One `notify:` entry of the project file, as written (checked by src/policy/project-notify.ts). */
export interface NotifyTargetConfig {
  to: 'webhook' | 'slack' | 'teams';
  /** The variable holding the URL (`AUTOJOIN_NOTIFY_*`). */
  urlEnv: string;
  /** webhook: the variable holding the signing secret (`AUTOJOIN_NOTIFY_*`). */
  secretEnv?: string;
  /** Default: all four events. */
  on?: NotifyEventName[];
  /** A failed delivery turns exit 0 into 1; an unset or invalid variable is exit 1 before any write. */
  required?: boolean;
}

/** What the loader hands the rest of the program. */
export interface LoadResult {
  /** Valid policies, sorted by key; a scope with any error is left out. Empty when the loader streamed them (`streamPolicies`). */
  policies: Policy[];
  /** How many valid policies there are: `policies.length`, or as many as `streamPolicies` yielded (and were not declared twice). */
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
