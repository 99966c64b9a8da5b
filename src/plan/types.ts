import type { Policy, SourcePos } from '../policy/types.js';
import type { ScopeKey } from '../scope.js';
import type { LiveScope } from '../service/types.js';
import type { PlanContext, PlanProject } from './context-types.js';

/** The three kinds of change, in the order a plan lists them (clears first). */
export type ChangeKind = 'create' | 'update' | 'clear';

/** What every kind of change holds: the scope and what apply sends for it (`after`, name, metadata). */
interface ChangeCommon extends Pick<Policy, 'key' | 'scope' | 'scopeType' | 'scopeName' | 'componentId' | 'metadata'> {
  /**
   * When the file has no metadata: the live invitation's own keys (never the marker's), which no
   * policy manages and the POST keeps. Absent when there are none.
   */
  keptMetadata?: Record<string, unknown>;
  /** The live domains (normalized, sorted). */
  before: string[];
  /** The domains apply writes (normalized, sorted). */
  after: string[];
  /** Removed domains whose policy entry expired, each with the reason `expired YYYY-MM-DD`; absent when none. Explains, never steers apply. */
  removalReasons?: RemovalReason[];
  /** Why the change is planned (`replaced`: nothing differs, --replace forces the write); explains, never steers apply. */
  reason: 'declared' | 'pruned' | 'replaced';
  /** The policy file the change comes from (for pruned scopes: the file at the prune revision). */
  source?: SourcePos;
  /** In a plan of several projects: the project it belongs to (its `projects[].name`); absent in a plan of one. */
  project?: string;
  /** In a plan of several projects: the project whose owner last marked the scope, when it moved from there (an owner update, no take-over). */
  movedFrom?: string;
  /** True when the file says `domains: []` (an intended clear). */
  explicitEmpty?: boolean;
  /** Pruned from git history (--prune): the commit that deleted or rewrote the file that declared the scope. */
  removedBy?: RemovalCommit;
  /**
   * Which side moved the scope (docs/ownership-pruning-drift.md, "Drift"): `drift`, changed outside this repository only;
   * `conflict`, both. Absent on this repository's own change. Explains, never steers apply.
   */
  origin?: 'drift' | 'conflict';
  /** drift and conflict: what was changed outside, measured from the state last applied. */
  outside?: OutsideChange;
  /**
   * `apply --only-expired`: the live marker's keys, written back unchanged (the state last applied
   * stays the one it names; this write only takes from it what expired since). Absent otherwise.
   */
  keepMarker?: Record<string, string>;
}

/**
 * create: the scope has no active autojoin; `before` is [], `after` the desired domains
 * (non-empty); no `autojoin`; `fieldChanges` only the owner, when the scope's deactivated
 * invitation carries another owner's marker (absent otherwise).
 */
export interface CreateChange extends ChangeCommon {
  kind: 'create';
  autojoin?: never;
  fieldChanges?: FieldChange[];
}

/**
 * update: an active autojoin whose domains, name, metadata or owner differ; `before` and `after`
 * both set (equal when only a field changes), `autojoin` the invitation it rewrites,
 * `fieldChanges` how the name, metadata, owner and component change (absent when none do).
 */
export interface UpdateChange extends ChangeCommon {
  kind: 'update';
  autojoin?: LiveAutojoin;
  /** An update whose only field change is `owner` marks the scope. */
  fieldChanges?: FieldChange[];
}

/** clear: an active autojoin with domains, desired none; `before` set, `after` [], `autojoin` the invitation it deactivates, `fieldChanges` only its owner. */
export interface ClearChange extends ChangeCommon {
  kind: 'clear';
  autojoin?: LiveAutojoin;
  fieldChanges?: FieldChange[];
}

/**
 * One change to one scope, by kind. It holds what was decided, never what follows from it: the
 * domains added and removed and the plan's counts come from `derived.ts`, and the plan document
 * carries them for its readers (`encode.ts`), as Terraform's Change and ChangeSrc do.
 */
export type Change = CreateChange | UpdateChange | ClearChange;

/** The live autojoin invitation a change rewrites, so a reviewer sees what a clear switches off (a saved plan may leave it out). */
export type LiveAutojoin = NonNullable<LiveScope['autojoin']>;

/** What was changed outside this repository: the state last applied → the live state. */
export interface OutsideChange {
  added: string[];
  removed: string[];
  /** Managed fields whose live value differs from the state last applied. */
  fields: { field: 'scopeName' | 'metadata' | 'componentId'; before: unknown; after: unknown }[];
  /** The live autojoin invitation's `modifiedAt`, when the service shows one. */
  modifiedAt?: string;
  /**
   * Set when the scope lost what this repository wrote to another writer: its ownership `marker`
   * (metadata rewritten without it), or its autojoin `invitation` (revoked, deleted); the next write restores it.
   */
  lost?: 'marker' | 'invitation';
}

/** A scope changed outside this repository that the plan leaves as it is live (`drift: keep`). */
export interface DriftReport {
  key: ScopeKey;
  /** In a plan of several projects: its project's name; absent in a plan of one. */
  project?: string;
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
 * owner's, or no marker): pruning never clears it (docs/ownership-pruning-drift.md, "Ownership").
 */
export interface NotManagedHere {
  key: ScopeKey;
  /** In a plan of several projects: its project's name; absent in a plan of one. */
  project?: string;
  /** The owner its live marker names; null when it carries no marker. */
  owner: string | null;
  removedBy?: RemovalCommit;
  /** The marker's commit, when it names this owner but was written from a commit this checkout does not contain. */
  commit?: string;
}

/** A scope the plan writes whose marker was written from a commit this checkout does not contain. */
export interface BehindScope {
  key: ScopeKey;
  /** In a plan of several projects: its project's name; absent in a plan of one. */
  project?: string;
  /** The marker's `autojoin-sync.commit`. */
  commit: string;
  /** True when git cannot find it in this shallow clone: the full history (`fetch-depth: 0`) is needed to tell. */
  missing?: boolean;
}

/**
 * Version of the plan document; 2 added `metadata` and `fieldChanges` to changes; 3 added
 * `owner`, `notManagedHere`, `keptMetadata` and the `owner` field change; 4 added `context`; 5
 * added `projects` (a plan of several projects) and each entry's `project`.
 */
export const PLAN_FORMAT_VERSION = 5;

export type { PlanProject, ProjectFileRecord, PlanContext, SafetyLimits } from './context-types.js';

/** Fingerprint of one scope's live state at plan time; `apply --plan` refuses when it moved. */
export interface ScopeFingerprint {
  key: ScopeKey;
  /** In a plan of several projects: its project's name; absent in a plan of one. */
  project?: string;
  fingerprint: string;
  /**
   * Shard parts (and the plans merged from them): what the live answer showed of the scope's
   * ownership, so merge-plans decides the unknown-ownership refusal over the whole (ownership.ts).
   */
  ownership?: OwnershipStatus;
}

/** What a scope's live answer shows of its owner: a marker, metadata without one, or no `metadata` field at all. */
export type OwnershipStatus = 'marked' | 'unmarked' | 'noMetadata';

/**
 * One scope of a plan's census: its live domains (normalized, sorted) as a counting rule
 * (`maxScopesPerDomain`) counts them, with the fingerprint of the live state they were read from.
 */
export interface CensusEntry {
  key: ScopeKey;
  domains: string[];
  fingerprint: string;
}

/**
 * A plan in memory. Its JSON form (schemas/plan.schema.json, what saved plans store) is
 * `encodePlan`'s, which adds the derived `summary` and each change's `added`/`removed`/`unchanged`.
 */
export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  createdAt: string;
  /** Base URL the plan was made against (never any credential). */
  target: string;
  changes: Change[];
  /** Every scope the plan covers, changed or not, with its live fingerprint. */
  scopes: ScopeFingerprint[];
  /** `K/N` when made with --shard: a part, never applied alone. */
  shard?: string;
  /** N when merged from the shard plans 1..N of one run (merge-plans). */
  shards?: number;
  /** Set when a secret the service echoed was replaced by `***` in the plan's outputs: the scopes that held it; apply --plan refuses such a plan. */
  redacted?: ScopeKey[];
  /** The owner every write of this plan marks its scope with (`autojoin-sync.owner`). */
  owner: string;
  /** Pruning candidates left alone because their live marker is not this owner's, by key. */
  notManagedHere: NotManagedHere[];
  /** Scopes changed outside this repository that the plan leaves as they are (`drift: keep`), by key. */
  drift: DriftReport[];
  /** What this plan cannot know from the service's answers (no `groups`, no `metadata`), one sentence each; absent when nothing. */
  notes?: string[];
  /** Scopes pruning leaves alone because a policy file outside the paths declares them now (absent when none), by key. */
  declaredOutside?: DeclaredOutside[];
  /** The run context the plan was made in; every plan a command makes has one (a saved plan must). */
  context?: PlanContext;
  /** A plan of several projects (src/commands/run-projects.ts): each project's context, by name; absent in a plan of one. */
  projects?: PlanProject[];
  /** Scopes written from a commit this checkout does not contain: apply refuses the run unless --allow-behind names each. Absent when none. */
  behind?: BehindScope[];
  /** Scopes marked by owner `default` from a commit of this history, re-marked with this plan's owner (no take-over needed). Absent when none. */
  ownerMoves?: ScopeKey[];
  /**
   * The live domains of every scope the plan read, by key, kept when an error-level rule counts
   * scopes (`maxScopesPerDomain`), for the write checks (write-checks.ts). In the plan document of
   * a shard part and of a merged plan (merge-plans counts over the parts' union), and of a
   * `--changed-since` plan (the scopes its counting rules match, read again by apply --plan);
   * in memory only otherwise.
   */
  census?: CensusEntry[];
  /**
   * In memory only, never in the plan document: `apply --only-expired`'s scopes it cannot write as
   * they are live (only-expired.ts), each with why; the verdict refuses them by name.
   */
  onlyExpiredRefused?: { key: ScopeKey; reason: 'component' | 'remark' | 'marker-removed' }[];
}

/** A scope no policy file under the paths declares, kept from pruning by a file outside them. */
export interface DeclaredOutside {
  key: ScopeKey;
  /** In a plan of several projects: its project's name; absent in a plan of one. */
  project?: string;
  /** The file that declares it, relative to the working directory, and the line of its document. */
  file: string;
  line: number;
}

/** Counts over a plan, derived by `summarize` (derived.ts). */
export interface PlanSummary {
  create: number;
  update: number;
  clear: number;
  unchanged: number;
  domainsAdded: number;
  domainsRemoved: number;
}
