/**
 * Reading live state: for each declared scope, walk its listing page by page, keep only the
 * active autojoin invitation (autojoin-rule.ts), and reduce it to what the plan needs; or,
 * under `--listing autojoin`, ask call 2b alone. Scopes are read by a small pool of workers
 * sharing one client (one keep-alive pool), so at most `concurrency` scopes are in flight and
 * no scope keeps more than one page plus its autojoin invitation in memory while it is read.
 */
import { scopeKey, type ScopeKey, type ScopeRef } from '../scope.js';
import type { LiveScope } from './types.js';
import { activeAutojoinOf, domainsFromAutojoinState, domainsFromTargets, findActiveAutojoin, scopeNameOf } from './autojoin-rule.js';
import type { ServiceClient } from './client.js';
import { DEFAULT_CONCURRENCY } from '../run/numbers.js';
import { DEFAULT_LISTING } from '../run/listing.js';
import type { Invitation, ListingCall, ListingKind } from './types.js';

/** Options of {@link readLiveState}; all optional. */
export interface ReadLiveStateOptions {
  /** How to read: listing call 1 ('by-group'), 1b ('by-scope'), or call 2b alone ('autojoin'); default DEFAULT_LISTING. */
  listing?: ListingKind;
  /** Scopes read at the same time (default 16). */
  concurrency?: number;
  /** Called after each scope is read. */
  onProgress?: (done: number, total: number) => void;
}

/** A scope to read; a ref that knows its key (a policy) passes it, so the reader keeps no copy of it. */
export type KeyedRef = ScopeRef & { key?: ScopeKey };

const keyOf = (ref: KeyedRef): ScopeKey => ref.key ?? scopeKey(ref);

/** Options of {@link startLiveReader}. */
export interface LiveReaderOptions<R extends KeyedRef = KeyedRef> extends ReadLiveStateOptions {
  /**
   * Takes each scope's live state as soon as it is read (in completion order), with the ref it
   * was added as; the reader then keeps none, and `finish` resolves with an empty map. A caller
   * that reduces each scope at once (the plan keeps a fingerprint and any change) holds memory
   * flat in the number of scopes.
   */
  onScope?: (live: LiveScope, ref: R) => void;
}

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
  const reader = startLiveReader(client, options);
  reader.add(refs);
  return reader.finish();
}

/** Reads scopes as they are handed in, so reading can start before every scope is known. */
export interface LiveReader<R extends KeyedRef = KeyedRef> {
  /** Queues `refs` for reading (a scope already queued is read once, for its first ref). */
  add(refs: Iterable<R>): void;
  /**
   * No more scopes will be added.
   * @returns the live state of every scope added, by key, in the order added (empty with `onScope`)
   * @throws LiveStateError for the first scope whose read failed
   */
  finish(): Promise<Map<ScopeKey, LiveScope>>;
  /** Starts nothing more, and resolves once the reads in flight have stopped (their results are dropped); later adds are ignored. */
  cancel(): Promise<void>;
}

/**
 * @returns a reader that keeps at most `options.concurrency` scopes in flight from the moment the
 *   first scope is added (e.g. while policy files are still being loaded)
 */
export function startLiveReader<R extends KeyedRef = KeyedRef>(client: ServiceClient, options: LiveReaderOptions<R> = {}): LiveReader<R> {
  const queued = new Set<ScopeKey>();
  // A slot is emptied once its read starts, so a ref (a whole policy, for makePlan) is kept only while it waits.
  const order: (R | undefined)[] = [];
  let next = 0;
  const results = new Map<ScopeKey, LiveScope>();
  const keep = options.onScope ?? ((live: LiveScope) => void results.set(live.key, live));
  let done = 0;
  const abort = new AbortController();
  const limit = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY) || 1);
  let resolveSettled: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (resolveSettled = resolve));
  let failure: LiveStateError | undefined;
  let active = 0;
  let closed = false;

  const readOne = async (ref: R): Promise<void> => {
    try {
      const live = await readLiveScope(client, ref, { listing: options.listing, signal: abort.signal });
      keep(live, ref);
      options.onProgress?.(++done, queued.size);
    } catch (error) {
      if (!abort.signal.aborted) failure = new LiveStateError(keyOf(ref), error);
      abort.abort();
    }
  };
  const pump = (): void => {
    while (active < limit && next < order.length && !abort.signal.aborted) {
      active += 1;
      const ref = order[next] as R;
      order[next++] = undefined;
      void readOne(ref).finally(() => {
        active -= 1;
        pump();
      });
    }
    const allRead = closed && next === order.length;
    if (active === 0 && (allRead || abort.signal.aborted)) resolveSettled();
  };
  return {
    add(refs) {
      if (abort.signal.aborted) return;
      for (const ref of refs) {
        const key = keyOf(ref);
        if (queued.has(key)) continue;
        queued.add(key);
        order.push(ref);
      }
      pump();
    },
    async finish() {
      closed = true;
      pump();
      await settled;
      if (failure) throw failure;
      if (options.onScope) return results;
      return new Map([...queued].map((key) => [key, results.get(key) as LiveScope]));
    },
    async cancel() {
      abort.abort();
      pump();
      await settled;
    },
  };
}

/** Reads one scope, by its listing or (listing mode 'autojoin') by call 2b alone. */
function readLiveScope(client: ServiceClient, ref: ScopeRef, options: { listing?: ListingKind; signal?: AbortSignal } = {}): Promise<LiveScope> {
  const listing = options.listing ?? DEFAULT_LISTING;
  return listing === 'autojoin' ? readByCall2b(client, ref) : readByListing(client, ref, listing, options.signal);
}

/**
 * Reads one scope with call 2b only. A 404 is not "no autojoin" here (the service answers
 * `invitation: null` for that): nothing else would show a clear the plan needs, so it fails.
 */
async function readByCall2b(client: ServiceClient, ref: ScopeRef): Promise<LiveScope> {
  const state = await client.getAutojoin(ref);
  if (state === null) {
    throw new Error('call 2b (by-scope/…/autojoin) answers 404, so --listing autojoin cannot tell whether the scope has autojoin; use --listing by-scope');
  }
  const autojoin = activeAutojoinOf(state);
  return liveScopeOf(ref, autojoin, autojoin ? domainsFromAutojoinState(state) : []);
}

/**
 * Reads one scope: its active autojoin invitation from the listing, and its domains from the
 * invitation's targets or, when it has none, from call 2b.
 */
async function readByListing(client: ServiceClient, ref: ScopeRef, listing: ListingCall, signal?: AbortSignal): Promise<LiveScope> {
  let autojoin: Invitation | null = null;
  for await (const page of client.listInvitationPages(listing, ref)) {
    signal?.throwIfAborted();
    autojoin = findActiveAutojoin(autojoin ? [autojoin, ...page] : page);
  }
  if (autojoin === null) return liveScopeOf(ref, null, []);
  const domains = domainsFromTargets(autojoin);
  return liveScopeOf(ref, autojoin, domains.length > 0 ? domains : await domainsFromCall2b(client, ref, autojoin));
}

/**
 * An active autojoin invitation always has domains (an empty list deactivates it), so when
 * call 2b knows of none the two calls disagree. Reading that as "no domains" could hide a
 * needed clear, so it is an error instead.
 */
async function domainsFromCall2b(client: ServiceClient, ref: ScopeRef, autojoin: Invitation): Promise<string[]> {
  const state = await client.getAutojoin(ref);
  const disagree = `the listing shows active autojoin invitation ${autojoin.id} without domain targets, but call 2b (by-scope/…/autojoin)`;
  if (state === null) throw new Error(`${disagree} answers 404`);
  const domains = activeAutojoinOf(state) === null ? [] : domainsFromAutojoinState(state);
  if (domains.length === 0) throw new Error(`${disagree} shows no active autojoin`);
  return domains;
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
  return live;
}
