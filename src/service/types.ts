/**
 * Wire types of the Invitation Service, as the client reads them: the fields it uses, as
 * schemas/api/invitation-service.schema.json checks them (answers pass that tolerant reader
 * before they are typed as these). Every other field may be there, with any value.
 */
import type { ScopeKey } from '../scope.js';

/** Whom an invitation is addressed to (`{type: "email", value}`), as the wire says it. */
export interface InvitationTarget {
  type: string;
  value: string;
}

export interface Invitation {
  id: string;
  invitationType?: string | null;
  deactivated?: boolean;
  status?: string | null;
  target?: InvitationTarget[] | null;
  accepts?: unknown[] | null;
  groups?: Group[] | null;
  modifiedAt?: string | null;
  /** Any JSON: free-form data the SDKs attach (the autojoin invitation's comes from the POST's `metadata`). */
  metadata?: unknown;
  [field: string]: unknown;
}

/**
 * An item of `groups[]`: `id` is the service's own id, `groupId` the caller's scope id,
 * `name` the last scopeName posted. Older answers carry the scope id in `id`, without groupId.
 */
export interface Group {
  id?: string | null;
  groupId?: string | null;
  type?: string | null;
  name?: string | null;
}

/** Response of calls 1 and 1b: one page of 20 invitations, or all of them from a service that does not paginate. */
export interface InvitationListing {
  invitations: Invitation[];
}

export interface AutojoinDomain {
  id?: string;
  domain: string;
}

/**
 * Response of call 2 (POST autojoin) and call 2b (GET by-scope/.../autojoin). `invitation` is
 * the autojoin invitation if one exists (after a clear, with `deactivated: true`), null (or
 * absent) otherwise: for a scope that never had autojoin, and after a clear on older services.
 */
export interface AutojoinState {
  autojoinDomains: AutojoinDomain[];
  invitation?: Invitation | null;
}

/** Body of call 2: the complete domain list of one scope. */
export interface SyncRequest {
  domains: string[];
  scope: string;
  scopeType: string;
  componentId: string;
  scopeName?: string;
  /** Stored on the autojoin invitation as its `metadata` (the SDKs' ConfigureAutojoinRequest). */
  metadata?: Record<string, unknown>;
}

/**
 * How live state is read (docs/service.md, "How a scope is read"): `autojoin` (call 2b only, one
 * request per scope, the default), `by-group` (call 1, deprecated) or `by-scope` (call 1b),
 * each listing checked against call 2b.
 */
export type ReadMode = 'by-group' | 'by-scope' | 'autojoin';

/** The two listing calls, 1 and 1b. */
export type ListingCall = 'by-group' | 'by-scope';

/** Invitations per listing page: the interface says exactly 20. */
export const PAGE_SIZE = 20;

/**
 * What the plan needs to know of one scope's live autojoin state, reduced from its
 * listing (src/service/state.ts). Nothing else of the listing is kept.
 */
export interface LiveScope {
  key: ScopeKey;
  scope: string;
  scopeType: string;
  /** Normalized, sorted domains of the active autojoin invitation; [] when there is none. */
  domains: string[];
  /** The active (`deactivated: false`) autojoin invitation, or null when there is none. */
  autojoin: {
    invitationId: string;
    status?: string;
    acceptsCount: number;
    modifiedAt?: string;
  } | null;
  /**
   * The scope's name as the active autojoin invitation shows it (`groups[].name` of the scope's
   * group): null when it shows none; absent when there is no active autojoin invitation or it
   * carries no `groups`, and then the name is not compared.
   */
  scopeName?: string | null;
  /** The active autojoin invitation's `metadata` (any JSON); absent when it has no such field (then not compared). */
  metadata?: unknown;
  /**
   * The component the active autojoin invitation names: its `componentId`, else `widgetId` (the
   * posted componentId under its older name, as the public reference's answers show it); absent
   * when it names none (then not compared).
   */
  componentId?: string;
  /**
   * The fields the active autojoin invitation's answer does not carry at all (the newer API
   * reference shows call 2 / 2b without `groups`, and the Node SDK's types have no `metadata`):
   * what the plan then cannot know, said once per run (src/plan/ownership.ts, readLimits).
   */
  unshown?: { groups?: true; metadata?: true };
  /**
   * No active autojoin invitation, but a deactivated one (a clear leaves it, with its metadata):
   * its `metadata`, when the service shows it and it is not null. Only its ownership marker is
   * used: a create over another owner's switched-off scope is refused as an update is.
   */
  deactivatedMetadata?: unknown;
}
