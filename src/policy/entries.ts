/**
 * Domain entries as written: a string, or a time-bound grant `{domain, expires, reason}`. An
 * entry past its `expires` day is not desired (the plan removes it); one that expires within
 * {@link EXPIRY_WARNING_DAYS} days is warned about, at its place in the file, so the drift
 * job's schedule both warns ahead and enforces the date.
 */
import { EXPIRY_WARNING_DAYS, daysBetween, isCalendarDate } from './clock.js';
import { diagnosticAt } from './format.js';
import { normalizeDomain } from './domains.js';
import { compareStrings } from '../comparable-domain.js';
import { ownString } from '../text.js';
import type { RuleSubject } from './rules.js';
import type { ScopeKey } from '../scope.js';
import type { Diagnostic, DomainEntry, Policy, SourcePos } from './types.js';

/** One entry of a `domains` list that names a domain (anything else is the schema's to report). */
export interface WrittenEntry {
  /** Its index in the list. */
  index: number;
  /** The domain as written. */
  raw: string;
  /** The domain normalized (normalizeDomain): what the plan, the rules and the lookups compare. */
  domain: string;
  expires?: string;
  reason?: string;
}

/** @returns the entries of a `domains` value that carry a domain string, in list order. */
export function writtenEntries(domains: unknown): WrittenEntry[] {
  if (!Array.isArray(domains)) return [];
  const entries: WrittenEntry[] = [];
  domains.forEach((item: unknown, index) => {
    if (typeof item === 'string') entries.push({ index, raw: item, domain: ownString(normalizeDomain(item)) });
    else if (isGrant(item)) entries.push(grantEntry(item, index));
  });
  return entries;
}

function isGrant(item: unknown): item is { domain: string; expires?: unknown; reason?: unknown } {
  return typeof item === 'object' && item !== null && typeof (item as { domain?: unknown }).domain === 'string';
}

function grantEntry(item: { domain: string; expires?: unknown; reason?: unknown }, index: number): WrittenEntry {
  const entry: WrittenEntry = { index, raw: item.domain, domain: ownString(normalizeDomain(item.domain)) };
  if (typeof item.expires === 'string') entry.expires = item.expires;
  if (typeof item.reason === 'string') entry.reason = item.reason;
  return entry;
}

/** @returns whether the entry's `expires` day is before `today` (both YYYY-MM-DD: text order is day order). */
export function isExpired(entry: Pick<WrittenEntry, 'expires'>, today: string): boolean {
  return entry.expires !== undefined && isCalendarDate(entry.expires) && entry.expires < today;
}

/**
 * @param at where entry `index` stands
 * @returns an error for an `expires` that is no calendar day, a warning for an entry that has
 *   expired (the plan removes it) or expires within {@link EXPIRY_WARNING_DAYS} days
 */
export function expiryDiagnostics(entries: readonly WrittenEntry[], today: string, at: (index: number) => SourcePos): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const entry of entries) {
    const { expires } = entry;
    if (expires === undefined) continue;
    const why = entry.reason === undefined ? '' : ` (${entry.reason})`;
    if (!isCalendarDate(expires)) {
      diagnostics.push(diagnosticAt(at(entry.index), 'error', 'invalid-expiry', `expires: "${expires}" is not a calendar day; write YYYY-MM-DD, e.g. 2026-06-30`));
      continue;
    }
    const days = daysBetween(today, expires);
    if (days < 0) {
      const message = `${entry.raw} expired on ${expires}${why}: it is no longer desired and the plan removes it; delete the entry or move its date`;
      diagnostics.push(diagnosticAt(at(entry.index), 'warning', 'expired-domain', message));
    } else if (days <= EXPIRY_WARNING_DAYS) {
      const when = days === 0 ? 'today (its last day)' : `in ${days} ${days === 1 ? 'day' : 'days'}`;
      const message = `${entry.raw} expires on ${expires}, ${when}${why}: after that the plan removes it; move the date to keep it`;
      diagnostics.push(diagnosticAt(at(entry.index), 'warning', 'expires-soon', message));
    }
  }
  return diagnostics;
}

/** @returns `expired` for a policy with entries past their date (normalized, sorted), else nothing. */
export function expiredOf(written: readonly WrittenEntry[], today: string): Pick<Policy, 'expired'> {
  const expired = written.filter((entry) => isExpired(entry, today));
  if (expired.length === 0) return {};
  const entries = expired.map((entry) => ({ domain: entry.domain, expires: entry.expires as string }));
  return { expired: entries.sort((a, b) => compareStrings(a.domain, b.domain)) };
}

/** @returns every entry normalized, with its place (who, inventory). */
export function placedEntries(written: readonly WrittenEntry[], today: string, at: (index: number) => SourcePos): DomainEntry[] {
  return written.map((entry) => ({
    domain: entry.domain,
    ...(entry.expires === undefined ? {} : { expires: entry.expires }),
    ...(entry.reason === undefined ? {} : { reason: entry.reason }),
    expired: isExpired(entry, today),
    source: at(entry.index),
  }));
}

/** @returns a policy as the rules see it: the entries the plan keeps. */
export function ruleSubject(key: ScopeKey, desired: readonly WrittenEntry[], at: RuleSubject['at'], retired: boolean): RuleSubject {
  return { key, entries: desired, at, retired };
}
