/**
 * The one rule for where a scope's autojoin domains come from (docs/service.md, "How a scope is read"):
 *
 * 1. By default (`--read autojoin`), call 2b alone: the scope is active when its `invitation`
 *    is present and not `deactivated: true` (a clear leaves the invitation, deactivated; a scope
 *    that never had autojoin answers `invitation: null`); its `autojoinDomains` are the domains.
 * 2. In the listing modes, the active invitation with `invitationType: "autojoin"` in the
 *    scope's listing. "Active" means `deactivated` is not `true`: the interface does not say
 *    which fields are always present, and an invitation in a listing of *open* invitations that
 *    does not say it is deactivated is taken at its word. Should a listing ever hold two active
 *    ones, the most recently modified wins (then the first listed), so the choice does not
 *    depend on page order. Its `target` entries of type "domain" are the domains; when it has
 *    none (the real service's listings carry none: the SDKs know only email | phone | share |
 *    internal targets), call 2b's `autojoinDomains`.
 * 3. The listing and call 2b must agree, both ways, on whether the scope has an active autojoin
 *    (state.ts): either reading of a disagreement could hide a change the plan should show.
 *    Where the service does not offer call 2b, the domain targets are the only source.
 *
 * The scope's name is `groups[].name` of the autojoin invitation's group for the scope (the
 * item whose `groupId`, or in older answers `id`, is the scope); its metadata the invitation's
 * `metadata`; its component `componentId`, else `widgetId`. Domains come back in comparison form (src/comparable-domain.ts), the form the plan compares.
 * A scope without an active autojoin keeps the metadata of its deactivated invitation, as call
 * 2b shows it, only for the ownership marker it carries (a clear leaves the marker in place).
 */
import { comparableDomains } from '../comparable-domain.js';
import type { ScopeRef } from '../scope.js';
import type { AutojoinState, Group, Invitation, LiveScope } from './types.js';

function isActiveAutojoin(invitation: Invitation): boolean {
  return invitation.invitationType === 'autojoin' && invitation.deactivated !== true;
}

/** @returns the active autojoin invitation of a call 2 / 2b answer, or null (rule 1). */
export function activeAutojoinOf(state: AutojoinState): Invitation | null {
  const invitation = state.invitation ?? null;
  return invitation !== null && invitation.deactivated !== true ? invitation : null;
}

/**
 * @param live a scope as read, from the listing or from `state`
 * @param state the scope's call 2b answer
 * @returns `live`, with the metadata of the deactivated autojoin invitation `state` shows when
 *   `live` has no active one (the marker of whoever switched it off)
 */
export function withDeactivatedMetadata(live: LiveScope, state: AutojoinState): LiveScope {
  const invitation = state.invitation ?? null;
  if (live.autojoin !== null || invitation?.deactivated !== true) return live;
  const metadata = invitation.metadata ?? null;
  return metadata === null ? live : { ...live, deactivatedMetadata: metadata };
}

/**
 * @returns true when a call 2 / 2b answer shows an active autojoin: its invitation active, with
 *   domains (an empty list deactivates it). What a listing's active invitation must agree with (rule 3).
 */
export function showsActiveAutojoin(state: AutojoinState): boolean {
  return activeAutojoinOf(state) !== null && state.autojoinDomains.length > 0;
}

/**
 * @returns the scope's name as the invitation shows it: a string; null when its `groups` hold
 *   no named group for the scope; undefined when it carries no `groups` (the name cannot be read)
 */
export function scopeNameOf(invitation: Invitation, ref: ScopeRef): string | null | undefined {
  if (!Array.isArray(invitation.groups)) return undefined;
  const group = invitation.groups.find((item) => groupScope(item) === ref.scope);
  return typeof group?.name === 'string' ? group.name : null;
}

/**
 * @returns the component the invitation names: `componentId`, else `widgetId` (its older name,
 *   which the public reference's answers and the Python, Ruby and Rust SDKs still use); undefined
 *   when neither is a non-empty string
 */
export function componentIdOf(invitation: Invitation): string | undefined {
  for (const value of [invitation.componentId, invitation.widgetId]) if (typeof value === 'string' && value !== '') return value;
  return undefined;
}

function groupScope(group: Group): string | null | undefined {
  return typeof group.groupId === 'string' ? group.groupId : group.id;
}

/** @returns the active autojoin invitation among `invitations`, or null when there is none. */
export function findActiveAutojoin(invitations: Iterable<Invitation>): Invitation | null {
  let found: Invitation | null = null;
  for (const invitation of invitations) {
    if (!isActiveAutojoin(invitation)) continue;
    if (found === null || modifiedTime(invitation) > modifiedTime(found)) found = invitation;
  }
  return found;
}

/**
 * As a number, because ISO 8601 text does not sort by time once offsets or optional
 * milliseconds appear (`02:00+02:00` is earlier than `01:00Z`). Missing or unreadable sorts first.
 */
function modifiedTime(invitation: Invitation): number {
  const time = Date.parse(invitation.modifiedAt ?? '');
  return Number.isNaN(time) ? -Infinity : time;
}

/** @returns the normalized domains of an invitation's `target` entries of type "domain" ([] when none). */
export function domainsFromTargets(invitation: Invitation): string[] {
  const values = (invitation.target ?? [])
    .filter((target) => target.type.toLowerCase() === 'domain')
    .map((target) => target.value);
  return comparableDomains(values);
}

/** @returns the normalized domains of a call 2 / 2b answer. */
export function domainsFromAutojoinState(state: AutojoinState): string[] {
  return comparableDomains(state.autojoinDomains.map((entry) => entry.domain));
}
