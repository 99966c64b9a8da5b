/**
 * The service's wire shapes as the emulator produces them, written from the interface text
 * (invitation-service-interface.md) and the types of the service's published SDKs (the Node
 * SDK's InvitationResult, InvitationScope, InvitationAcceptance, AutojoinDomainsResponse,
 * ConfigureAutojoinRequest). Deliberately independent of the client's reader in src/service:
 * a belief the two shared would otherwise be invisible to every test.
 */

/** A target of an invitation: the SDKs know `email | phone | share | internal`; `domain` only with --domain-targets. */
export interface WireTarget {
  type: string;
  value: string;
  name?: string | null;
  avatarUrl?: string | null;
}

/** An item of `groups[]`: `id` is the service's own id, `groupId` the caller's scope id, `name` the last scopeName posted. */
export interface WireGroup {
  id: string;
  accountId: string;
  groupId: string;
  type: string;
  name: string;
  createdAt: string;
}

/** An item of `accepts[]`; `status` from the interface text (release 4), the rest from the SDKs' InvitationAcceptance. */
export interface WireAccept {
  id: string;
  accountId: string;
  projectId: string;
  acceptedAt: string;
  target: WireTarget;
  status?: string;
}

/**
 * An invitation; fields no SDK knows may appear too. Answers also carry `deploymentId` (required
 * by the Python SDK's InvitationResult), `widgetId` (the posted componentId under its older name,
 * as the public reference's answers show it) and `passThrough` (an opaque string): presented by
 * listing.ts. `groups` and `accepts` are left out with --no-groups, as the newer reference shows
 * call 2 / 2b answers; `metadata` is left out with --post-metadata ignore.
 */
export interface WireInvitation {
  id: string;
  invitationType: string;
  deactivated: boolean;
  modifiedAt: string | null;
  target: WireTarget[];
  groups: WireGroup[];
  accepts?: WireAccept[];
  metadata?: Record<string, unknown> | null;
  deploymentId?: string;
  widgetId?: string;
  passThrough?: string;
  [field: string]: unknown;
}

/** An autojoin domain. */
export interface WireDomain {
  id: string;
  domain: string;
}

/** Answer of call 2 and 2b: `invitation` is the autojoin invitation (`deactivated: true` after a clear); null only for a scope that never had one. */
export interface WireAutojoinAnswer {
  autojoinDomains: WireDomain[];
  invitation: WireInvitation | null;
}

/** Body of call 2 (ConfigureAutojoinRequest). */
export interface WireSyncRequest {
  domains: string[];
  scope: string;
  scopeType: string;
  /** Older SDKs send it as `widgetId`; request.ts reads either name into this one. */
  componentId: string;
  scopeName?: string;
  metadata?: Record<string, unknown>;
}

/** Invitations per listing page: the interface says exactly 20. */
export const LISTING_PAGE_SIZE = 20;
