/**
 * What calls 1 and 1b list for a scope, and how `start` picks a page of it.
 * The autojoin invitation (active or deactivated) sits in the middle of the ordinary ones,
 * at index floor(n / 2), so readers cannot assume it comes first or last.
 */
import type { Invitation } from '../service/types.js';
import { PAGE_SIZE } from '../service/types.js';
import type { EmulatorScope, StartMode } from './types.js';

/** @returns every invitation of a scope in listing order (stable between calls). */
export function listedInvitations(scope: EmulatorScope, options: { autojoinTargets: boolean }): Invitation[] {
  const ordinary = scope.invitations;
  if (!scope.autojoin) return ordinary;
  const autojoin = options.autojoinTargets ? scope.autojoin.invitation : withoutTargets(scope.autojoin.invitation);
  const at = Math.floor(ordinary.length / 2);
  return [...ordinary.slice(0, at), autojoin, ...ordinary.slice(at)];
}

function withoutTargets(invitation: Invitation): Invitation {
  const { target: _target, ...rest } = invitation;
  return rest;
}

/**
 * @returns the page for `start`: under 'offset' items [start, start+20); under 'after' start=0
 * gives [0, 20) and any other value [start+1, start+21) (the other reading of "set start to 19, 39, …").
 */
export function pageOf<T>(items: readonly T[], start: number, mode: StartMode): T[] {
  const from = mode === 'after' && start > 0 ? start + 1 : start;
  return items.slice(from, from + PAGE_SIZE);
}

/** @returns the parsed `start` query value, or null when it is not a non-negative integer. */
export function parseStart(raw: string | null): number | null {
  if (raw === null || raw === '') return 0;
  if (!/^\d{1,9}$/u.test(raw)) return null;
  return Number(raw);
}
