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

/** An item of `accepts[]`. */
export interface WireAccept {
  id: string;
  accountId: string;
  projectId: string;
  acceptedAt: string;
  target: WireTarget;
}

/** An invitation; fields no SDK knows may appear too. */
export interface WireInvitation {
  id: string;
  invitationType: string;
  deactivated: boolean;
  modifiedAt: string | null;
  target: WireTarget[];
  groups: WireGroup[];
  accepts?: WireAccept[];
  metadata?: Record<string, unknown> | null;
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
