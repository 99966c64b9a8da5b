/**
 * Reading live state: for each declared scope, ask call 2b alone (`--read autojoin`, the
 * default); or walk its listing page by page, keep only the active autojoin invitation
 * (autojoin-rule.ts), check it against call 2b, and reduce it to what the plan needs; with the
 * fallbacks of read-switch.ts when a call is missing. Scopes are read through the one bounded pool
 * (src/concurrency.ts) as wide as the client's AIMD window (pacing.ts), so the window alone limits
 * what is in flight, and no scope keeps more than one page plus its autojoin invitation in memory
 * while it is read.
 */
import { scopeKey, type ScopeKey, type ScopeRef } from '../scope.js';
import type { LiveScope } from './types.js';
import { activeAutojoinOf, componentIdOf, domainsFromAutojoinState, domainsFromTargets, findActiveAutojoin, scopeNameOf, showsActiveAutojoin, withDeactivatedMetadata } from './autojoin-rule.js';
import type { ServiceClient } from './client.js';
import { isServiceAnswer } from './read-switch.js';
import { mapBounded, readAhead } from '../concurrency.js';
import { DEFAULT_READ_MODE } from './read-mode.js';
import type { AutojoinState, Invitation, ListingCall, ReadMode } from './types.js';

/** Options of {@link readLiveState} and {@link readEach}; all optional. */
export interface ReadLiveStateOptions {
  /** How to read: call 2b alone ('autojoin', DEFAULT_READ_MODE), or listing call 1 ('by-group') or 1b ('by-scope') checked against 2b. */
  mode?: ReadMode;
  /** Called after each scope is read, with the number of scopes known so far. */
  onProgress?: (done: number, total: number) => void;
}

/** A scope to read; a ref that knows its key (a policy) passes it, so the reader makes no copy of it. */
export type KeyedRef = ScopeRef & { key?: ScopeKey };

const keyOf = (ref: KeyedRef): ScopeKey => ref.key ?? scopeKey(ref);

/** Reading one scope failed; the message starts with the scope key. */
export class LiveStateError extends Error {
  constructor(
    readonly key: ScopeKey,
    cause: unknown,
  ) {
    super(`reading ${key} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'LiveStateError';
  }
}

/**
 * Reads the live autojoin state of every scope in `refs` (duplicates read once).
 * Fails fast: after the first failure no new scope is started, the ones in flight stop at
 * their next page, and the call rejects with a LiveStateError naming the failed scope.
 * @returns a map by scope key, in the order of `refs`
 */
export async function readLiveState(
  client: ServiceClient,
  refs: readonly ScopeRef[],
  options: ReadLiveStateOptions = {},
): Promise<Map<ScopeKey, LiveScope>> {
  const order = new Map<ScopeKey, ScopeRef>();
  for (const ref of refs) if (!order.has(scopeKey(ref))) order.set(scopeKey(ref), ref);
  const read = new Map<ScopeKey, LiveScope>();
  for await (const { live } of readEach(client, order.values(), (ref) => ref, options)) read.set(live.key, live);
  return new Map([...order.keys()].map((key) => [key, read.get(key) as LiveScope]));
}

/** One item of {@link readEach}'s source, with its scope's live state. */
export interface ReadScope<T> {
  item: T;
  live: LiveScope;
}

/**
 * The streaming read: takes the items of `source` as they come (e.g. while policy files are still
 * loading; `readAhead` drains it, so loading never waits for reads), reads each one's scope
 * through the one bounded pool (src/concurrency.ts) as wide as the client's AIMD window, and
 * yields each with its live state as soon as it is read (completion order). Nothing is kept once
 * yielded, so a consumer that reduces each scope at once keeps no live state.
 * Stopping the loop, or the source throwing, aborts the reads in flight and ends once they stopped.
 * @throws LiveStateError for the first scope whose read failed (the others are then stopped)
 */
export async function* readEach<T>(
  client: ServiceClient,
  source: AsyncIterable<T> | Iterable<T>,
  refOf: (item: T) => KeyedRef,
  options: ReadLiveStateOptions = {},
): AsyncGenerator<ReadScope<T>, void, undefined> {
  const mode = options.mode ?? DEFAULT_READ_MODE;
  const ahead = readAhead(source);
  let done = 0;
  const readOne = async (item: T, signal: AbortSignal): Promise<LiveScope> => {
    const ref = refOf(item);
    try {
      return await readLiveScope(client, ref, mode, signal);
    } catch (error) {
      throw new LiveStateError(keyOf(ref), error);
    }
  };
  for await (const { item, result } of mapBounded(ahead.items, (running) => client.poolWidth(running), readOne)) {
    options.onProgress?.(++done, ahead.received);
    yield { item, live: result };
  }
}

/** Reads one scope: by call 2b alone (mode `autojoin`, the default), or by its listing checked against 2b. */
async function readLiveScope(client: ServiceClient, ref: ScopeRef, wanted: ReadMode, signal?: AbortSignal): Promise<LiveScope> {
  if (client.readSwitch.modeFor(wanted) === 'autojoin') {
    const state = await call2b(client, ref, wanted);
    if (state !== MISSING) return fromCall2b(ref, state);
  }
  return readByListing(client, ref, client.readSwitch.modeFor(wanted) as ListingCall, wanted, signal);
}

/** Call 2b is not offered by this service (read-switch.ts): the listings are read without it. */
const MISSING = Symbol('call 2b missing');

/**
 * @returns call 2b's answer for the scope, or MISSING when the service does not offer the call
 *   (404 or 405 before it answered any scope); a 404 after it has answered others is an error:
 *   nothing else would tell whether this scope has autojoin, and a clear the plan needs could hide
 */
async function call2b(client: ServiceClient, ref: ScopeRef, wanted: ReadMode): Promise<AutojoinState | typeof MISSING> {
  const reads = client.readSwitch;
  if (reads.autojoinMissing) return MISSING;
  let state: AutojoinState | null;
  try {
    state = await client.getAutojoin(ref);
  } catch (error) {
    if (isServiceAnswer(error) && error.status === 405 && reads.autojoinMissingOn(405, wanted)) return MISSING;
    throw error;
  }
  if (state !== null) {
    reads.autojoinAnswered();
    return state;
  }
  if (reads.autojoinMissingOn(404, wanted)) return MISSING;
  throw new Error(`call 2b (by-scope/…/autojoin) answers 404 for this scope, though it answered for others: whether the scope has autojoin cannot be told`);
}

/** A scope as call 2b shows it: active when its `invitation` is present and not deactivated. */
function fromCall2b(ref: ScopeRef, state: AutojoinState): LiveScope {
  const autojoin = activeAutojoinOf(state);
  return withDeactivatedMetadata(liveScopeOf(ref, autojoin, autojoin ? domainsFromAutojoinState(state) : []), state);
}

/**
 * Reads one scope by its listing: its active autojoin invitation, its domains from the
 * invitation's domain targets or else from call 2b, and the two calls held to agree
 * (autojoin-rule.ts, rule 3). Without call 2b, the domain targets are the only source.
 */
async function readByListing(client: ServiceClient, ref: ScopeRef, listing: ListingCall, wanted: ReadMode, signal?: AbortSignal): Promise<LiveScope> {
  let autojoin: Invitation | null = null;
  for await (const page of client.listInvitationPages(listing, ref)) {
    signal?.throwIfAborted();
    autojoin = findActiveAutojoin(autojoin ? [autojoin, ...page] : page);
  }
  const targets = autojoin === null ? [] : domainsFromTargets(autojoin);
  const state = await call2b(client, ref, wanted);
  if (state === MISSING) {
    if (autojoin !== null && targets.length === 0) throw new Error(`${listingShows(client.readSwitch.callFor(listing), autojoin)}, and this service does not offer call 2b (by-scope/…/autojoin), which would give its domains`);
    return liveScopeOf(ref, autojoin, targets);
  }
  checkAgreement(client.readSwitch.callFor(listing), autojoin, state);
  const live = liveScopeOf(ref, autojoin, targets.length > 0 ? targets : domainsFromAutojoinState(state));
  return withDeactivatedMetadata(withMarkerOf2b(live, autojoin, state), state);
}

/**
 * A listing that omits the invitation's `metadata` says nothing about ownership; call 2b, read
 * anyway, shows the same invitation: its metadata (the ownership marker) is taken from there, so
 * the ownership guard holds in every read mode and another owner's scope is never written.
 */
function withMarkerOf2b(live: LiveScope, autojoin: Invitation | null, state: AutojoinState): LiveScope {
  const invitation = state.invitation;
  if (autojoin === null || live.metadata !== undefined || !invitation || !Object.hasOwn(invitation, 'metadata')) return live;
  if (invitation.id !== autojoin.id) return live;
  return { ...live, metadata: invitation.metadata ?? null };
}

/**
 * The listing and call 2b must agree, both ways, on whether the scope has an active autojoin
 * (one with domains: an empty list deactivates it). Either reading of a disagreement could
 * hide a change the plan should show, so it is an error naming both answers.
 */
function checkAgreement(listing: ListingCall, autojoin: Invitation | null, state: AutojoinState): void {
  if ((autojoin !== null) === showsActiveAutojoin(state)) return;
  throw new Error(`the listing and call 2b disagree: ${listingShows(listing, autojoin)}, but call 2b (by-scope/…/autojoin) shows ${call2bShows(state)}`);
}

function listingShows(listing: ListingCall, autojoin: Invitation | null): string {
  const name = `the ${listing} listing (call ${listing === 'by-group' ? '1' : '1b'})`;
  if (autojoin === null) return `${name} shows no active autojoin invitation`;
  const targets = domainsFromTargets(autojoin);
  return `${name} shows active autojoin invitation ${autojoin.id} ${targets.length > 0 ? `with domains ${targets.join(', ')}` : 'without domain targets'}`;
}

function call2bShows(state: AutojoinState): string {
  const invitation = state.invitation ?? null;
  const domains = domainsFromAutojoinState(state);
  const listed = domains.length > 0 ? `domains ${domains.join(', ')}` : 'no domains';
  if (invitation === null) return `no autojoin invitation (invitation: null) and ${listed}`;
  const active = invitation.deactivated === true ? 'deactivated' : 'active';
  return `${active} autojoin invitation ${invitation.id} with ${listed}`;
}

/**
 * @returns the plan's view of a scope: its domains, the few facts of its autojoin invitation,
 *   and the name and metadata it shows (only what the invitation carries: see LiveScope)
 */
function liveScopeOf(ref: ScopeRef, autojoin: Invitation | null, domains: string[]): LiveScope {
  const live: LiveScope = {
    key: scopeKey(ref),
    scope: ref.scope,
    scopeType: ref.scopeType,
    domains,
    autojoin: autojoin && {
      invitationId: autojoin.id,
      status: autojoin.status ?? undefined,
      acceptsCount: autojoin.accepts?.length ?? 0,
      modifiedAt: autojoin.modifiedAt ?? undefined,
    },
  };
  if (autojoin === null) return live;
  const scopeName = scopeNameOf(autojoin, ref);
  if (scopeName !== undefined) live.scopeName = scopeName;
  if (Object.hasOwn(autojoin, 'metadata')) live.metadata = autojoin.metadata ?? null;
  const componentId = componentIdOf(autojoin);
  if (componentId !== undefined) live.componentId = componentId;
  const unshown = { ...(Array.isArray(autojoin.groups) ? {} : { groups: true as const }), ...(Object.hasOwn(autojoin, 'metadata') ? {} : { metadata: true as const }) };
  if (unshown.groups || unshown.metadata) live.unshown = unshown;
  return live;
}
