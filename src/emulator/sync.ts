/**
 * Call 2's semantics as a pure step: (state, request) → the scope's next state and the response.
 * The list in the request is complete: it replaces the stored one. An empty list deactivates the
 * scope's autojoin invitation, a non-empty one (re)activates it, creating it on the first sync.
 * A domain keeps its id for as long as the scope exists, even after it was removed and re-added.
 */
import type { AutojoinDomain, AutojoinState, Invitation, SyncRequest } from '../service/types.js';
import { scopeKey, type ScopeKey, type ScopeRef } from '../scope.js';
import { normalizeDomains } from './domains.js';
import { formatId } from './ids.js';
import type { EmulatorData, EmulatorScope } from './types.js';

export interface SyncOutcome {
  key: ScopeKey;
  scope: EmulatorScope;
  nextId: number;
  state: AutojoinState;
}

/** @returns the outcome of a validated sync request; `data` is not modified (see commitSync). */
export function planSync(data: EmulatorData, request: SyncRequest, now: Date): SyncOutcome {
  const key = scopeKey(request);
  const before = data.scopes[key] ?? newScope(request);
  let nextId = data.nextId;
  const knownDomainIds = { ...before.knownDomainIds };
  for (const domain of before.autojoin?.domains ?? []) knownDomainIds[domain.domain] ??= domain.id;
  const domains: AutojoinDomain[] = normalizeDomains(request.domains).map((domain) => {
    knownDomainIds[domain] ??= formatId('ajd', nextId++);
    return { id: knownDomainIds[domain] as string, domain };
  });
  const scopeName = request.scopeName ?? before.scopeName;
  const timestamp = now.toISOString();
  const previous = before.autojoin?.invitation ?? newAutojoinInvitation(request, formatId('inv', nextId++), timestamp);
  const next: Invitation = { ...previous, ...autojoinFields(request, scopeName ?? request.scope, domains) };
  // A sync that changes nothing leaves modifiedAt alone, as a reader comparing states would expect.
  const invitation = sameInvitation(previous, next) ? previous : { ...next, modifiedAt: timestamp };
  const scope: EmulatorScope = {
    ...before,
    ...(scopeName === undefined ? {} : { scopeName }),
    componentId: request.componentId,
    autojoin: { invitation, domains },
    knownDomainIds,
  };
  return { key, scope, nextId, state: { autojoinDomains: domains, invitation } };
}

/** Stores a planned sync in `data`; @returns the key of the scope it changed. */
export function commitSync(data: EmulatorData, outcome: SyncOutcome): ScopeKey[] {
  data.scopes[outcome.key] = outcome.scope;
  data.nextId = outcome.nextId;
  return [outcome.key];
}

function sameInvitation(a: Invitation, b: Invitation): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields of the autojoin invitation that follow from its scope and domain list. */
export function autojoinFields(ref: ScopeRef, scopeName: string, domains: readonly AutojoinDomain[]): Pick<Invitation, 'deactivated' | 'target' | 'groups'> {
  return {
    deactivated: domains.length === 0,
    target: domains.map((domain) => ({ type: 'domain', value: domain.domain })),
    groups: [{ type: ref.scopeType, id: ref.scope, name: scopeName }],
  };
}

function newScope(request: SyncRequest): EmulatorScope {
  return { scopeType: request.scopeType, scope: request.scope, autojoin: null, invitations: [] };
}

/** The autojoin invitation as first created for a scope. */
export function newAutojoinInvitation(ref: ScopeRef, id: string, timestamp: string): Invitation {
  return {
    id,
    accountId: 'acc_emulator',
    invitationType: 'autojoin',
    status: 'sent',
    deactivated: false,
    scope: ref.scope,
    scopeType: ref.scopeType,
    target: [],
    groups: [],
    accepts: [],
    attributes: {},
    configurationAttributes: {},
    formSubmissionData: {},
    metadata: {},
    clickThroughs: 0,
    views: 0,
    deliveryCount: 0,
    deliveryTypes: [],
    widgetId: 'wdg_emulator',
    expired: false,
    createdAt: timestamp,
    modifiedAt: timestamp,
  };
}
