/** Tiny builders for policies and live scopes, so each test reads as its table row. */
import type { LiveScope } from '../../src/service/types.js';
import type { Policy } from '../../src/policy/types.js';
import { parseScopeKey, type ScopeKey } from '../../src/scope.js';
import type { Plan } from '../../src/plan/types.js';
import { buildPlan } from '../support/plan.js';

/** A policy as the loader hands it over; `domains: []` counts as written explicitly. */
export function policy(key: ScopeKey, domains: string[], extra: Partial<Policy> = {}): Policy {
  const ref = parseScopeKey(key);
  return {
    key,
    ...ref,
    componentId: 'cmp_1',
    domains,
    source: { file: `policies/${ref.scope}.autojoin.yaml`, line: 1, column: 1 },
    explicitEmpty: domains.length === 0,
    ...extra,
  };
}

/** A live scope with an active autojoin invitation holding `domains`. */
export function live(key: ScopeKey, domains: string[], invitationId = `inv-${key}`): LiveScope {
  return { key, ...parseScopeKey(key), domains, autojoin: { invitationId, status: 'sent', acceptsCount: 0 } };
}

/** A live scope without an active autojoin invitation. */
export function noAutojoin(key: ScopeKey): LiveScope {
  return { key, ...parseScopeKey(key), domains: [], autojoin: null };
}

/** Keys live scopes by scope key, as src/service/state.ts returns them. */
export function liveMap(...scopes: LiveScope[]): Map<ScopeKey, LiveScope> {
  return new Map(scopes.map((scope) => [scope.key, scope]));
}

export const NOW = new Date('2025-01-02T03:04:05.000Z');
export const TARGET = 'https://invitations.example.com';

/** A live scope whose autojoin invitation carries `owner`'s ownership marker (pruning clears only such scopes of its own owner). */
export function marked(scope: LiveScope, owner = 'default'): LiveScope {
  return { ...scope, metadata: { 'autojoin-sync.owner': owner } };
}

/** A small plan with every kind of change (update, create, clear by pruning) and a scope name, one shard of one. */
export function samplePlan(): Plan {
  return buildPlan({
    desired: [policy('team/a', ['a.com', 'new.com'], { scopeName: 'Team A' }), policy('team/b', ['b.com']), policy('team/c', [])],
    live: liveMap(live('team/a', ['a.com', 'old.com']), live('team/c', ['c.com'])),
    pruned: [policy('team/gone', ['g.com'])],
    target: TARGET,
    shard: { index: 1, total: 1 },
    now: NOW,
  });
}
