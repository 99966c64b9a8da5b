/** The data of the DNS trust check (docs/governance.md, "Domain trust over DNS"): settings, answers, findings. */
import type { Severity } from '../policy/types.js';

/** The record types the check asks for: MX, A and AAAA, and TXT when it verifies. */
export type RecordType = 'MX' | 'A' | 'AAAA' | 'TXT';

/**
 * What one lookup found.
 *  - `records`: the values (MX exchanges, addresses, TXT records with their strings joined)
 *  - `nodata`: the name exists but has no record of this type
 *  - `nxdomain`: the name does not exist
 *  - `unanswered`: no usable answer; `reason` is `timeout`, `servfail`, `refused`, `deadline`
 *    (the whole check ran out of time before it) or another resolver error code
 */
export type Answer =
  | { kind: 'records'; values: readonly string[] }
  | { kind: 'nodata' }
  | { kind: 'nxdomain' }
  | { kind: 'unanswered'; reason: string };

/** The answers about one domain, by record type; a type not asked is absent. */
export type DomainAnswers = Partial<Record<RecordType, Answer>>;

/** How the check runs and judges. */
export interface DnsSettings {
  /** Resolver addresses as `setServers` takes them (`IP`, `IP:PORT`, `[IPv6]:PORT`); empty: the system's. */
  servers: readonly string[];
  /** With `verify: txt`: the token every domain must publish as `autojoin-sync-verification=TOKEN`. */
  token?: string;
  /** Timeouts and resolver failures are errors, not warnings (`--dns-strict`). */
  strict: boolean;
  /** How long one lookup may take, retries included, in milliseconds. */
  timeoutMs: number;
  /** How long the whole check may take, in milliseconds; domains not looked up by then get a timeout finding. */
  deadlineMs: number;
  /** Lookups in flight at once. */
  concurrency: number;
}

/** One problem with one domain; the caller places it at each entry that lists the domain. */
export interface DnsFinding {
  severity: Severity;
  code: string;
  message: string;
}

/** The TXT record a domain publishes to prove the organization controls it. */
export const VERIFICATION_PREFIX = 'autojoin-sync-verification=';
