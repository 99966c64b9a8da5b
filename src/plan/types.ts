import type { Policy, SourcePos } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import type { LiveScope } from '../service/types.js';

/**
 * One change to one scope. Which side is set, per kind:
 *  - create: no active autojoin yet; `before` is [], `after` is the desired list (non-empty).
 *  - update: active autojoin whose domains, name or metadata differ; both set, `added`/`removed`
 *            say how the domains change (both [] when only the name or metadata does),
 *            `fieldChanges` how the name and metadata do.
 *  - clear:  active autojoin with domains, desired []; `after` is [] (deactivates autojoin).
 */
export type ChangeKind = 'create' | 'update' | 'clear';

export interface Change {
  kind: ChangeKind;
  key: ScopeKey;
  scope: string;
  scopeType: string;
  scopeName?: string;
  componentId: string;
  /** The file's metadata, sent with the POST; absent when the file has none (not managed). */
  metadata?: Record<string, unknown>;
  before: string[];
  after: string[];
  added: string[];
  removed: string[];
  unchanged: number;
  /** Why the change is planned (`replaced`: nothing differs, --replace forces the write); explains, never steers apply. */
  reason: 'declared' | 'pruned' | 'replaced';
  /** The policy file the change comes from (for pruned scopes: the file at the prune revision). */
  source?: SourcePos;
  /** True when the file says `domains: []` (an intended clear). */
  explicitEmpty?: boolean;
  /** update and clear: the live autojoin invitation the change rewrites, so a reviewer sees what a clear switches off. */
  autojoin?: NonNullable<LiveScope['autojoin']>;
  /** update: the scope's name and metadata where the file and the service differ (old → new). */
  fieldChanges?: FieldChange[];
  /** Pruned from git history (--prune): the commit that deleted or rewrote the file that declared the scope. */
  removedBy?: RemovalCommit;
}

/** The commit after which no policy file declared a scope any more. */
export interface RemovalCommit {
  /** Abbreviated commit id (12 hex digits). */
  commit: string;
  /** Committer date, ISO 8601. */
  date: string;
  /** First line of the commit message. */
  subject: string;
}

/** A policy no file declares now (deleted since --prune-from, or found in git history by --prune). */
export interface PrunedPolicy extends Policy {
  removedBy?: RemovalCommit;
}

/**
 * One managed field besides the domains whose live value differs from the file's. A field
 * the file leaves out, or the service does not show, is never one.
 */
export interface FieldChange {
  field: 'scopeName' | 'metadata';
  /** What the service shows now; null when it shows none. */
  before: unknown;
  /** The file's value, which apply sends. */
  after: unknown;
}

/** Version of the plan document; 2 added `metadata` and `fieldChanges` to changes. */
export const PLAN_FORMAT_VERSION = 2;

/** Fingerprint of one scope's live state at plan time; `apply --plan` refuses when it moved. */
export interface ScopeFingerprint {
  key: ScopeKey;
  fingerprint: string;
}

/** The plan document; its JSON form is schemas/plan.schema.json, what saved plans store. */
export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  createdAt: string;
  /** Base URL the plan was made against (never any credential). */
  target: string;
  changes: Change[];
  /** Every scope the plan covers, changed or not, with its live fingerprint. */
  scopes: ScopeFingerprint[];
  summary: PlanSummary;
  /** `K/N` when made with --shard. */
  shard?: string;
}

export interface PlanSummary {
  create: number;
  update: number;
  clear: number;
  unchanged: number;
  domainsAdded: number;
  domainsRemoved: number;
}

/** Limits checked on a plan before anything is written. */
export interface SafetyLimits {
  maxRemovals?: number;
  maxRemovalPercent?: number;
  allowEmpty?: boolean;
}
