/**
 * The ownership marker (docs/ownership-pruning-drift.md, "Ownership"): every write marks its scope as managed by one
 * repository, in the autojoin invitation's `metadata`, under keys no policy may set:
 *
 *  | key                    | value                                                         |
 *  |------------------------|---------------------------------------------------------------|
 *  | `autojoin-sync.owner`  | the project file's `owner` (default `default`)                |
 *  | `autojoin-sync.commit` | the commit HEAD pointed to when the write was made (not outside git) |
 *  | `autojoin-sync.digest` | sha256 (hex) of {@link canonicalWrittenState}                 |
 *  | `autojoin-sync.applied`| the UTC date of the write (expiry of the state last applied is evaluated then) |
 *  | `autojoin-sync.keys`   | the metadata keys the policy declared at the write, comma-separated |
 *
 * Every value is a string. The metadata a write sends is managed per key: the live keys that are
 * not this repository's (keptMetadataOf), the policy's keys over them, and the marker on top.
 * Pure: no I/O.
 */
import { createHash } from 'node:crypto';
import { comparableDomains } from '../comparable-domain.js';
import { canonicalJson } from './canonical-json.js';
import type { LiveScope } from '../service/types.js';
import type { OwnershipStatus } from './types.js';
import { compareScopeKeys, type ScopeKey } from '../scope.js';
import { isPlainObject } from '../plain-object.js';

/** Keys starting with this are the marker's; a policy that sets one is an error. */
export const RESERVED_PREFIX = 'autojoin-sync.';

/** The marker's metadata keys. */
export const MARKER_KEYS = {
  owner: 'autojoin-sync.owner',
  commit: 'autojoin-sync.commit',
  digest: 'autojoin-sync.digest',
  applied: 'autojoin-sync.applied',
  keys: 'autojoin-sync.keys',
} as const;

/** The owner of a project file that names none. */
export const DEFAULT_OWNER = 'default';

/** What a scope's live marker says; only `owner` is required for a scope to count as marked. */
export interface Marker {
  owner: string;
  /** The commit HEAD pointed to when the scope was last written; absent when written outside git. */
  commit?: string;
  /** sha256 hex of the canonical state last written (canonicalWrittenState). */
  digest?: string;
  /** The UTC date (YYYY-MM-DD) of the write; absent on markers of releases before it was kept. */
  applied?: string;
  /** The metadata keys this repository managed at the write; absent on older markers. */
  keys?: string[];
}

/** The state one write sets, the input of the digest: what a policy (or a clear) manages. */
export interface WrittenState {
  scopeType: string;
  scope: string;
  componentId: string;
  /** Only when the policy manages the name. */
  scopeName?: string;
  /** The complete list written; normalized and sorted here. */
  domains: readonly string[];
  /** Only when the policy manages metadata (never the marker's keys). */
  metadata?: Record<string, unknown>;
}

/**
 * The one source of the state a write leaves, for both sides of the digest: apply hashes it from
 * the change it POSTs (with the domains it writes), drift from what the files declare now. A
 * field added to the digest is added here, so the two cannot drift apart.
 * @returns the managed fields of `source` as a WrittenState (scopeName and metadata only when set)
 */
export function writtenStateOf(source: WrittenState): WrittenState {
  const state: WrittenState = { scopeType: source.scopeType, scope: source.scope, componentId: source.componentId, domains: source.domains };
  if (source.scopeName !== undefined) state.scopeName = source.scopeName;
  if (source.metadata !== undefined) state.metadata = source.metadata;
  return state;
}

/** @returns true for a metadata key only the marker may set. */
export function isReservedKey(key: string): boolean {
  return key.startsWith(RESERVED_PREFIX);
}

/**
 * Reads the marker from a live invitation's metadata.
 * @param metadata the live autojoin invitation's `metadata` (any JSON)
 * @returns the marker, or null when the metadata names no owner (not an object, or no string owner)
 */
export function markerOf(metadata: unknown): Marker | null {
  if (!isPlainObject(metadata)) return null;
  const owner = metadata[MARKER_KEYS.owner];
  if (typeof owner !== 'string' || owner === '') return null;
  const marker: Marker = { owner };
  const commit = metadata[MARKER_KEYS.commit];
  const digest = metadata[MARKER_KEYS.digest];
  if (typeof commit === 'string' && commit !== '') marker.commit = commit;
  if (typeof digest === 'string' && digest !== '') marker.digest = digest;
  const applied = metadata[MARKER_KEYS.applied];
  if (typeof applied === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(applied)) marker.applied = applied;
  const keys = metadata[MARKER_KEYS.keys];
  if (typeof keys === 'string') marker.keys = decodeKeys(keys);
  return marker;
}

/**
 * @param live a scope's live state (undefined, or no active autojoin invitation: no marker)
 * @returns the marker its active autojoin invitation carries, or null when it carries none
 */
export function liveMarker(live: LiveScope | undefined): Marker | null {
  return live?.autojoin ? markerOf(live.metadata) : null;
}

/**
 * @param live a scope's live state without an active autojoin invitation
 * @returns the marker its deactivated autojoin invitation still carries (the owner that switched
 *   it off), or null: none, or the scope has an active invitation (then see liveMarker)
 */
export function deactivatedMarker(live: LiveScope | undefined): Marker | null {
  return live && !live.autojoin ? markerOf(live.deactivatedMetadata) : null;
}

/**
 * The canonical form of a written state, defined once: canonical JSON (object keys sorted at
 * every level, no whitespace) of `{componentId, domains, metadata?, scope, scopeName?, scopeType}`,
 * where `domains` are normalized (lower case, punycode, no trailing dot), unique and sorted, and
 * `scopeName` and `metadata` are present only when the policy manages them.
 * @returns the canonical text the digest hashes
 */
export function canonicalWrittenState(state: WrittenState): string {
  // canonicalJson leaves out a field that is undefined, as JSON.stringify does: an unmanaged name or metadata.
  return canonicalJson({
    componentId: state.componentId,
    domains: comparableDomains(state.domains),
    metadata: state.metadata,
    scope: state.scope,
    scopeName: state.scopeName,
    scopeType: state.scopeType,
  });
}

/** @returns sha256 (64 lower-case hex characters) of {@link canonicalWrittenState}. */
export function stateDigest(state: WrittenState): string {
  return createHash('sha256').update(canonicalWrittenState(state)).digest('hex');
}

/**
 * @param live the live autojoin invitation's `metadata` (any JSON)
 * @returns its own keys: every key but the marker's; {} when it is not an object
 */
export function unmarkedMetadata(live: unknown): Record<string, unknown> {
  if (!isPlainObject(live)) return {};
  return Object.fromEntries(Object.entries(live).filter(([key]) => !isReservedKey(key)));
}

/**
 * Per-key metadata (as `kubectl apply` manages fields): this repository's keys are the ones the
 * policy declares now and the ones it declared at the last write (the marker's `keys`; a marker
 * from before `keys` was kept managed the keys the policy declares now). Every other live key is
 * another writer's and is kept on every write.
 * @param live a scope's live state
 * @param managed the policy's metadata (undefined: the policy declares no metadata now)
 * @returns the live keys a write must keep; undefined when there are none
 */
export function keptMetadataOf(live: LiveScope | undefined, managed: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!live?.autojoin) return undefined;
  const ours = ourKeys(live.metadata, managed);
  const kept = Object.fromEntries(Object.entries(unmarkedMetadata(live.metadata)).filter(([key]) => !ours.has(key)));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** @returns the live metadata limited to `keys` (the managed ones), without the marker */
export function pickMetadata(live: unknown, keys: readonly string[]): Record<string, unknown> {
  const own = unmarkedMetadata(live);
  return Object.fromEntries(keys.filter((key) => Object.hasOwn(own, key)).map((key) => [key, own[key]]));
}

/**
 * @param managed the policy's metadata (undefined: it declares none now)
 * @returns the live metadata of this repository's keys (declared now or at the last write), as
 *   compared with the policy's and shown as a field's `before`
 */
export function managedLiveMetadata(live: LiveScope | undefined, managed: Record<string, unknown> | undefined): Record<string, unknown> {
  return pickMetadata(live?.metadata, [...ourKeys(live?.metadata, managed)]);
}

/** @returns this repository's metadata keys: the policy's now, and the marker's `keys` (those of the last write). */
function ourKeys(metadata: unknown, managed: Record<string, unknown> | undefined): Set<string> {
  // Stryker disable next-line ArrayDeclaration: a marker without `keys` names none; only a live key spelt as the mutant's made-up one could tell
  const lastWritten = markerOf(metadata)?.keys ?? [];
  return new Set([...Object.keys(managed ?? {}), ...lastWritten]);
}

/** `keys` as the marker keeps it: sorted, comma-separated, a comma or % in a key percent-encoded. */
export function encodeKeys(keys: readonly string[]): string {
  return [...keys].sort().map((key) => key.replace(/%/g, '%25').replace(/,/g, '%2C')).join(',');
}

function decodeKeys(text: string): string[] {
  if (text === '') return [];
  return text.split(',').map((key) => key.replace(/%2C/gi, ',').replace(/%25/g, '%'));
}

/** What {@link metadataToWrite} is made of. */
export interface MetadataToWrite {
  /** The policy's metadata; when undefined, the policy does not manage metadata. */
  managed?: Record<string, unknown>;
  /** Live keys no policy manages, kept on the write under the policy's own. */
  kept?: Record<string, unknown>;
  owner: string;
  /** HEAD when the write is made; left out when undefined (outside git). */
  commit?: string;
  /** {@link stateDigest} of the state written. */
  digest: string;
  /** The UTC date of the write (`autojoin-sync.applied`); left out when undefined. */
  applied?: string;
}

/**
 * @returns the `metadata` of a write: the kept live keys, the policy's keys over them, then the
 *   marker's keys (the policy's key list among them), which no other key can overwrite
 */
export function metadataToWrite(input: MetadataToWrite): Record<string, unknown> {
  const own = { ...unmarkedMetadata(input.kept ?? {}), ...unmarkedMetadata(input.managed ?? {}) };
  const marker: Record<string, string> = { [MARKER_KEYS.owner]: input.owner };
  if (input.commit !== undefined) marker[MARKER_KEYS.commit] = input.commit;
  marker[MARKER_KEYS.digest] = input.digest;
  if (input.applied !== undefined) marker[MARKER_KEYS.applied] = input.applied;
  marker[MARKER_KEYS.keys] = encodeKeys(Object.keys(unmarkedMetadata(input.managed ?? {})));
  return { ...own, ...marker };
}

/**
 * @returns what a scope's live answer shows of its owner (a shard part records it per scope):
 *   `noMetadata` when it shows no metadata at all (an active invitation without the field, or no
 *   invitation), `marked` when the metadata it shows names an owner, `unmarked` otherwise
 */
export function ownershipStatus(live: LiveScope | undefined): OwnershipStatus {
  const shown = live?.autojoin ? live.metadata : live?.deactivatedMetadata;
  if (shown === undefined) return 'noMetadata';
  return markerOf(shown) === null ? 'unmarked' : 'marked';
}

/**
 * Unknown ownership decided over a whole plan from what its scopes recorded (a plan merged from
 * shard parts: {@link ownershipStatus}), as {@link readLimits} decides it while one plan reads:
 * @returns the changed scopes with an active invitation whose answer carried no `metadata`,
 *   when another scope of the plan showed metadata; [] when none did or nothing was recorded
 */
export function unknownOwnershipOf(changes: readonly { key: ScopeKey; kind: string }[], scopes: readonly { key: ScopeKey; ownership?: OwnershipStatus }[]): ScopeKey[] {
  if (!scopes.some((scope) => scope.ownership === 'marked' || scope.ownership === 'unmarked')) return [];
  const unshown = new Set(scopes.filter((scope) => scope.ownership === 'noMetadata').map((scope) => scope.key));
  return changes.filter((change) => change.kind !== 'create' && unshown.has(change.key)).map((change) => change.key).sort(compareScopeKeys);
}

/** The plan's notes on what the service's answers do not show. */
export const CANNOT_READ = {
  scopeName:
    'scopeName cannot be read back from this service: its autojoin invitations carry no `groups`, so the name a file states is sent with every write but never compared (a rename made outside does not show)',
  ownership:
    'ownership cannot be read from this service: its answers carry no `metadata`, so no scope can be shown to be managed here: pruning clears nothing, drift cannot be told apart, and no scope is refused as another owner\'s',
} as const;

/**
 * What one plan's reads show of the service, scope by scope: whether answers carry `groups` and
 * `metadata` at all. An answer with no `metadata` field says nothing about ownership: when other
 * scopes of the run show metadata, such a scope is not written without --take-ownership (its
 * marker may be hidden, not absent); when none does, the plan says once that ownership cannot be read.
 */
export interface ReadLimits {
  see(key: ScopeKey, live: LiveScope | undefined, changed: boolean): void;
  /** @returns the plan's notes (what it cannot know), [] when the answers show everything. */
  notes(): string[];
  /** @returns the changed scopes whose answer carried no `metadata` while others did, by key. */
  unknownOwnership(): ScopeKey[];
}

export function readLimits(): ReadLimits {
  let noGroups = false;
  let metadataShown = false;
  const unshown: ScopeKey[] = [];
  let unshownCount = 0;
  return {
    see(key, live, changed) {
      if (live?.deactivatedMetadata !== undefined) metadataShown = true;
      if (!live?.autojoin) return;
      if (live.unshown?.groups) noGroups = true;
      if (live.metadata !== undefined) metadataShown = true;
      else if (live.unshown?.metadata) {
        unshownCount += 1;
        if (changed) unshown.push(key);
      }
    },
    notes: () => [...(noGroups ? [CANNOT_READ.scopeName] : []), ...(!metadataShown && unshownCount > 0 ? [CANNOT_READ.ownership] : [])],
    unknownOwnership: () => (metadataShown ? [...unshown].sort(compareScopeKeys) : []),
  };
}
