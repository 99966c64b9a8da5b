/**
 * Call 2's semantics as a pure step: (state, request) → the scope's next state and the response.
 * The list in the request is complete: it replaces the stored one. An empty list deactivates the
 * scope's autojoin invitation, a non-empty one (re)activates it, creating it on the first sync.
 * A domain keeps its id for as long as the scope exists, even after it was removed and re-added.
 * The scope's group takes the last scopeName posted; `metadata`, when posted, replaces the
 * invitation's, and a POST without it keeps the stored one (a widget admin's edit is not erased),
 * or under `postMetadata` replaces it with none (`replace`); `ignore` keeps no metadata at all.
 * The answer carries the invitation once it exists, deactivated (`deactivated: true`) after a
 * clear, as the SDKs' AutojoinDomainsResponse says: "the autojoin invitation if one exists, null
 * otherwise"; `invitation: null` is only for a scope that never had autojoin.
 */
import { scopeKey, type ScopeKey, type ScopeRef } from '../scope.js';
import { normalizeDomains } from './domain-rules.js';
import { formatId } from './ids.js';
import { EMULATOR_DEPLOYMENT, presentedAutojoin, type ListingOptions } from './listing.js';
import type { EmulatorData, EmulatorScope } from './types.js';
import type { WireAutojoinAnswer, WireDomain, WireGroup, WireInvitation, WireSyncRequest } from './wire.js';

/** The account every emulated record belongs to. */
export const EMULATOR_ACCOUNT = 'acc_emulator';

export interface SyncOutcome {
  key: ScopeKey;
  scope: EmulatorScope;
  nextId: number;
  state: WireAutojoinAnswer;
}

/** What presenting the answer (listing.ts) and storing metadata need of the emulator's options. */
export type PresentOptions = ListingOptions;

/** @returns the outcome of a validated sync request; `data` is not modified (see commitSync). */
export function planSync(data: EmulatorData, request: WireSyncRequest, now: Date, options: PresentOptions): SyncOutcome {
  const key = scopeKey(request);
  const before = data.scopes[key] ?? newScope(request);
  let nextId = data.nextId;
  const knownDomainIds = { ...before.knownDomainIds };
  for (const domain of before.autojoin?.domains ?? []) knownDomainIds[domain.domain] ??= domain.id;
  const domains: WireDomain[] = normalizeDomains(request.domains).map((domain) => {
    knownDomainIds[domain] ??= formatId('ajd', nextId++);
    return { id: knownDomainIds[domain], domain };
  });
  const scopeName = request.scopeName ?? before.scopeName;
  const timestamp = now.toISOString();
  const previous = before.autojoin?.invitation ?? newAutojoinInvitation(request, formatId('inv', nextId++), timestamp);
  const group = groupOf(previous, request, scopeName ?? request.scope, () => formatId('grp', nextId++), timestamp);
  const next: WireInvitation = { ...previous, ...autojoinFields(domains, group), ...metadataOf(request, previous, options) };
  // A sync that changes nothing leaves modifiedAt alone, as a reader comparing states would expect.
  const unchanged = sameJson(previous, next) && sameJson(before.autojoin?.domains ?? [], domains);
  const invitation = unchanged ? previous : { ...next, modifiedAt: timestamp };
  const scope: EmulatorScope = {
    ...before,
    ...(scopeName === undefined ? {} : { scopeName }),
    componentId: request.componentId,
    autojoin: { invitation, domains },
    knownDomainIds,
  };
  return { key, scope, nextId, state: autojoinAnswer(scope, options) };
}

/** Stores a planned sync in `data`. */
export function commitSync(data: EmulatorData, outcome: SyncOutcome): void {
  data.scopes[outcome.key] = outcome.scope;
  data.nextId = outcome.nextId;
}

/**
 * @returns the answer of call 2 and 2b for a stored scope (or none): its autojoin invitation,
 *   active or deactivated; `invitation: null` only when the scope never had one
 */
export function autojoinAnswer(scope: EmulatorScope | undefined, options: PresentOptions): WireAutojoinAnswer {
  const autojoin = scope?.autojoin;
  if (!autojoin) return { autojoinDomains: [], invitation: null };
  return { autojoinDomains: autojoin.domains, invitation: presentedAutojoin(scope, options) };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields of the autojoin invitation that follow from its domain list and group. */
export function autojoinFields(domains: readonly WireDomain[], group: WireGroup): Pick<WireInvitation, 'deactivated' | 'groups'> {
  return { deactivated: domains.length === 0, groups: [group] };
}

/** The scope's group: kept (with its service id) across syncs, renamed to the last scopeName posted. */
function groupOf(invitation: WireInvitation, ref: ScopeRef, name: string, newId: () => string, timestamp: string): WireGroup {
  const existing = invitation.groups.find((group) => group.groupId === ref.scope && typeof group.id === 'string');
  return existing
    ? { ...existing, name }
    : { id: newId(), accountId: EMULATOR_ACCOUNT, groupId: ref.scope, type: ref.scopeType, name, createdAt: timestamp };
}

function metadataOf(request: WireSyncRequest, previous: WireInvitation, options: PresentOptions): Pick<WireInvitation, 'metadata'> {
  switch (options.postMetadata ?? 'keep') {
    case 'ignore':
      return { metadata: null };
    case 'replace':
      return { metadata: request.metadata ?? null };
    default:
      return { metadata: request.metadata ?? previous.metadata ?? null };
  }
}

function newScope(request: WireSyncRequest): EmulatorScope {
  return { scopeType: request.scopeType, scope: request.scope, autojoin: null, invitations: [] };
}

/** The autojoin invitation as first created for a scope (its group is added by the sync). */
export function newAutojoinInvitation(ref: ScopeRef, id: string, timestamp: string): WireInvitation {
  return {
    id,
    accountId: EMULATOR_ACCOUNT,
    invitationType: 'autojoin',
    status: 'sent',
    deactivated: false,
    scope: ref.scope,
    scopeType: ref.scopeType,
    target: [],
    groups: [],
    accepts: [],
    attributes: null,
    configurationAttributes: null,
    formSubmissionData: null,
    metadata: null,
    clickThroughs: 0,
    views: 0,
    deliveryCount: 0,
    deliveryTypes: [],
    foreignCreatorId: '',
    widgetConfigurationId: 'wcf_emulator',
    deploymentId: EMULATOR_DEPLOYMENT,
    projectId: 'prj_emulator',
    expired: false,
    createdAt: timestamp,
    modifiedAt: timestamp,
  };
}
