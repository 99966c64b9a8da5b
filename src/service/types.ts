/**
 * Wire types of the Invitation Service, as described by schemas/api/invitation-service.schema.json.
 * Responses are validated against that schema before they are typed as these.
 */
export interface Target {
  type: string;
  value: string;
}

export interface Invitation {
  id: string;
  invitationType?: string | null;
  deactivated?: boolean;
  status?: string | null;
  target?: Target[] | null;
  scope?: string | null;
  scopeType?: string | null;
  accepts?: { id: string; status?: string | null }[] | null;
  groups?: { type: string; id: string; name?: string | null }[] | null;
  modifiedAt?: string | null;
  createdAt?: string | null;
  [field: string]: unknown;
}

/** Response of calls 1 and 1b: one page of at most 20 invitations. */
export interface InvitationListing {
  invitations: Invitation[];
}

export interface AutojoinDomain {
  id: string;
  domain: string;
}

/** Response of call 2 (POST autojoin) and call 2b (GET by-scope/.../autojoin). */
export interface AutojoinState {
  autojoinDomains: AutojoinDomain[];
  invitation: Invitation;
}

/** Body of call 2: the complete domain list of one scope. */
export interface SyncRequest {
  domains: string[];
  scope: string;
  scopeType: string;
  componentId: string;
  scopeName?: string;
}

export interface ErrorBody {
  statusCode: number;
  message: string | string[];
  error?: string;
}

/** Which listing call reads a scope's invitations: call 1 (deprecated) or call 1b. */
export type ListingKind = 'by-group' | 'by-scope';

/** Invitations per listing page: the interface says exactly 20. */
export const PAGE_SIZE = 20;
