import type { Policy, SourcePos } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import type { LiveScope } from '../service/types.js';
import type { OutsideChange } from './drift.js';

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
  /**
   * When the file has no metadata: the live invitation's own keys (never the marker's), which no
   * policy manages and the POST keeps. Absent when there are none.
   */
  keptMetadata?: Record<string, unknown>;
  before: string[];
  after: string[];
  added: string[];
  removed: string[];
  unchanged: number;
  /** Removed domains whose policy entry expired, each with the reason `expired YYYY-MM-DD`; absent when none. Explains, never steers apply. */
  removalReasons?: RemovalReason[];
  /** Why the change is planned (`replaced`: nothing differs, --replace forces the write); explains, never steers apply. */
  reason: 'declared' | 'pruned' | 'replaced';
  /** The policy file the change comes from (for pruned scopes: the file at the prune revision). */
  source?: SourcePos;
  /** True when the file says `domains: []` (an intended clear). */
  explicitEmpty?: boolean;
  /** update and clear: the live autojoin invitation the change rewrites, so a reviewer sees what a clear switches off. */
  autojoin?: NonNullable<LiveScope['autojoin']>;
  /**
   * update and clear: the scope's name, metadata and owner where the file (or this run) and the
   * service differ (old → new). An update whose only field change is `owner` marks the scope.
   */
  fieldChanges?: FieldChange[];
  /** Pruned from git history (--prune): the commit that deleted or rewrote the file that declared the scope. */
  removedBy?: RemovalCommit;
  /**
   * Which side moved the scope (README, "Drift"): `drift`, changed outside this repository only;
   * `conflict`, both. Absent on this repository's own change. Explains, never steers apply.
   */
  origin?: 'drift' | 'conflict';
  /** drift and conflict: what was changed outside, measured from the state last applied. */
  outside?: OutsideChange;
}

/** A scope changed outside this repository that the plan leaves as it is live (`drift: keep`). */
export interface DriftReport {
  key: ScopeKey;
  origin: 'drift' | 'conflict';
  scopeName?: string;
  /** The policy file that declares the scope. */
  source?: SourcePos;
  /** The live domains, which stay. */
  live: string[];
  outside: OutsideChange;
}

/** Why one removed domain goes. */
export interface RemovalReason {
  domain: string;
  /** `expired YYYY-MM-DD`. */
  reason: string;
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
 * the file leaves out, or the service does not show, is never one. `metadata` is compared and
 * shown without the ownership marker's keys; `owner` is the marker's owner (before: null when
 * the scope carries no marker; after: the plan's owner).
 */
export interface FieldChange {
  field: 'scopeName' | 'metadata' | 'owner' | 'componentId';
  /** What the service shows now; null when it shows none. */
  before: unknown;
  /** The file's value, which apply sends. */
  after: unknown;
}

/**
 * A scope no file declares any more whose live marker does not name this plan's owner (another
 * owner's, or no marker): pruning never clears it (README, "Ownership").
 */
export interface NotManagedHere {
  key: ScopeKey;
  /** The owner its live marker names; null when it carries no marker. */
  owner: string | null;
  removedBy?: RemovalCommit;
}

/**
 * Version of the plan document; 2 added `metadata` and `fieldChanges` to changes; 3 added
 * `owner`, `notManagedHere`, `keptMetadata` and the `owner` field change.
 */
export const PLAN_FORMAT_VERSION = 3;

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
  /** Set when a secret the service echoed was replaced by `***` in the plan's outputs: the scopes that held it; apply --plan refuses such a plan. */
  redacted?: ScopeKey[];
  /** The owner every write of this plan marks its scope with (`autojoin-sync.owner`). */
  owner: string;
  /** Pruning candidates left alone because their live marker is not this owner's, by key. */
  notManagedHere: NotManagedHere[];
  /** Scopes changed outside this repository that the plan leaves as they are (`drift: keep`), by key. */
  drift: DriftReport[];
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
