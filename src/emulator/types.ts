import type { ScopeKey } from '../scope.js';
import type { WireDomain, WireInvitation } from './wire.js';

/** One scope as the emulator stores it. */
export interface EmulatorScope {
  scopeType: string;
  scope: string;
  scopeName?: string;
  componentId?: string;
  /**
   * The scope's autojoin invitation (active or deactivated) and its domains; null until the
   * first sync. The invitation is stored without domain targets: listings add them only
   * with `domainTargets`.
   */
  autojoin: { invitation: WireInvitation; domains: WireDomain[] } | null;
  /** Ordinary invitations (single_use / multi_use) listed together with the autojoin one. */
  invitations: WireInvitation[];
  /** Every domain this scope ever had, with its id, so a re-added domain gets its old id back. */
  knownDomainIds?: Record<string, string>;
}

/** The emulator's whole state; persisted as JSON (write-temp + rename) when a data file is given. */
export interface EmulatorData {
  formatVersion: 1;
  scopes: Record<ScopeKey, EmulatorScope>;
  formStylePresets: Record<string, Record<string, unknown>>;
  emailPresets: Record<string, unknown>[];
  /** Counter for new ids, so ids stay unique across restarts. */
  nextId: number;
}

/** An injected fault: an error status, a reset connection, a late answer or a body cut short. */
export type FaultKind = '500' | '503' | '429' | 'reset' | 'slow' | 'truncated';

/**
 * What a POST of call 2 without `metadata` does to the stored metadata (no document says):
 * `keep` it (the default), `replace` it with none (null), or `ignore`: the service keeps no
 * metadata at all, and no answer carries the field.
 */
export type PostMetadataMode = 'keep' | 'replace' | 'ignore';

/** How the listing reads `start`: a 0-based offset (the emulator default) or "the index after which the page begins". */
export type StartMode = 'offset' | 'after';

/** Options of startEmulator; all optional. */
export interface EmulatorOptions {
  /** 0 (default) picks a free port. The emulator only ever listens on 127.0.0.1. */
  port?: number;
  /** JSON file to load the state from and persist it to. */
  dataFile?: string;
  /** Told once when another emulator holds the data file's lock and this one waits for it (lock.ts). */
  onLockWait?: (message: string) => void;
  /** Initial state when there is no data file (or it does not exist yet). */
  data?: EmulatorData;
  apiKey?: string;
  accessToken?: string;
  /** Added to every response. */
  latencyMs?: number;
  /** Probability in [0, 1] that a request gets a fault instead of its answer. */
  faultRate?: number;
  /** Which faults to draw from (default: all). */
  faults?: FaultKind[];
  /** Seed for the fault generator, so a run is repeatable. */
  faultSeed?: number;
  startMode?: StartMode;
  /**
   * List the autojoin invitation with `{type: "domain"}` targets (default false: like the real
   * service, whose SDKs know only email | phone | share | internal targets; readers use call 2b).
   */
  domainTargets?: boolean;
  /** Answer every invitation of a scope in one page, whatever `start` says (as the SDKs assume). */
  unpaginated?: boolean;
  /** When false, the deprecated by-group call answers 404, as after its removal (default true). */
  byGroup?: boolean;
  /** When false, no invitation carries `groups` nor `accepts`, as the newer reference shows call 2 / 2b (default true). */
  groups?: boolean;
  /** What a POST without `metadata` does to the stored metadata (default keep). */
  postMetadata?: PostMetadataMode;
  /** How long a 'slow' fault delays its answer (default 3000 ms). */
  slowMs?: number;
  /** Answer 429 at once (no Retry-After) to a request arriving while this many are in flight. */
  maxInFlight?: number;
  /**
   * For tests: awaited before each request is answered (after its latency), so a test can hold a
   * request in flight until it lets it go, and know when it arrived, without waiting on a clock.
   */
  beforeAnswer?: (request: { method: string; path: string }) => Promise<void> | void;
}

/** One request as the emulator served it. */
export interface RequestLogEntry {
  method: string;
  /** The request target as received: percent-encoded path plus query, e.g. `/api/v1/invitations/by-scope/team/a%2Fb?start=19`. */
  path: string;
  /** 0 when the connection was reset without an answer. */
  status: number;
  /** Set when the request got an injected fault. */
  fault?: FaultKind;
}

/** A running emulator. */
export interface Emulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  apiKey: string;
  accessToken: string;
  /** Every request served, in order. */
  requests: RequestLogEntry[];
  /** A deep copy of the current state. */
  data(): EmulatorData;
  /** Stops accepting, closes keep-alive sockets, flushes the data file. */
  close(): Promise<void>;
}
