/**
 * The one rule for where a scope's autojoin domains come from (README, "How live state is read"):
 *
 * 1. In the scope's listing, the active invitation with `invitationType: "autojoin"`.
 *    "Active" means `deactivated` is not `true`: the interface does not say which fields are
 *    always present, and an invitation in a listing of *open* invitations that does not say
 *    it is deactivated is taken at its word. An explicit `deactivated: true` is inactive.
 *    Should a listing ever hold two active ones, the most recently modified wins (then the
 *    first listed), so the choice does not depend on page order.
 * 2. Its `target` entries of type "domain" are the domains.
 * 3. When that invitation exists but carries no domain target, the domains come from call 2b
 *    (`autojoinDomains`) instead: the real service's listings carry no domains (the SDKs know
 *    only email | phone | share | internal targets). If call 2b then shows no active autojoin
 *    (404, `invitation: null` or no domains), the two calls disagree and reading the scope
 *    fails (state.ts): taking "no domains" could hide a clear the plan should show.
 * 4. Under `--listing autojoin`, call 2b alone: active when its `invitation` is present and not
 *    deactivated; its `autojoinDomains` are the domains.
 *
 * The scope's name is `groups[].name` of the autojoin invitation's group for the scope (the
 * item whose `groupId`, or in older answers `id`, is the scope); its metadata the invitation's
 * `metadata`. Domains come back in comparison form (src/domain.ts), the form the plan compares.
 */
import { comparableDomains } from '../domain.js';
import type { ScopeRef } from '../scope.js';
import type { AutojoinState, Group, Invitation } from './types.js';

function isActiveAutojoin(invitation: Invitation): boolean {
  return invitation.invitationType === 'autojoin' && invitation.deactivated !== true;
}

/** @returns the active autojoin invitation of a call 2 / 2b answer, or null (rule 4). */
export function activeAutojoinOf(state: AutojoinState): Invitation | null {
  const invitation = state.invitation ?? null;
  return invitation !== null && invitation.deactivated !== true ? invitation : null;
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
