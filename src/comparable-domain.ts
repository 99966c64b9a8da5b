/**
 * The comparison form of domains, shared by the live-state reader (src/service) and the
 * plan (src/plan), so both sides of a diff are normalized by the same code.
 * (src/policy's normalizeDomain shares the punycode step, {@link asciiDomain}, but keeps
 * bad input such as `acme.com..` or `a@b` intact for its checks.)
 */
import { domainToASCII } from 'node:url';
import { sortInPlace } from './small-sort.js';

/**
 * Printable ASCII without upper case or space: text that trimming, lower-casing and the punycode
 * step all leave as it is (only a trailing dot is left to check).
 */
const COMPARABLE_TEXT = /^[\x21-\x40\x5b-\x7e]+$/u;

/**
 * The comparison form of one domain: trimmed, lower case, punycode, no trailing dot.
 * Policies arrive normalized already; live lists come from a service that may not
 * normalize, so both sides go through this before they are compared.
 */
export function comparableDomain(raw: string): string {
  if (inComparisonForm(raw)) return raw;
  return asciiDomain(raw.trim().toLowerCase().replace(/\.+$/, ''));
}

/**
 * The punycode step of domain normalization: Unicode labels become `xn--` labels (the
 * platform's IDNA); text IDNA refuses comes back as it was. ASCII text is returned as is,
 * which also skips the WHATWG host parser's IPv4 rewriting (`0x7f.1` would become
 * `127.0.0.1`), so an invalid entry is never turned into a different one.
 * @param lower text already trimmed and lower-cased
 */
export function asciiDomain(lower: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(lower)) return lower;
  return domainToASCII(lower) || lower;
}

/** @returns the list in comparison form: normalized, de-duplicated, sorted. */
export function comparableDomains(raw: readonly string[]): string[] {
  if (sortedComparable(raw)) return raw.slice();
  const unique = new Set(raw.map(comparableDomain).filter((domain) => domain !== ''));
  return sortInPlace([...unique], compareStrings);
}

/** Whether `domain` is its own comparison form (a fast check that avoids three string copies). */
function inComparisonForm(domain: string): boolean {
  return COMPARABLE_TEXT.test(domain) && !domain.endsWith('.');
}

/**
 * Whether the list is its own comparison form already: every domain in it, strictly ascending (so
 * no duplicates). Policies and most services' answers are, and then the list is only copied.
 */
function sortedComparable(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i++) {
    const domain = raw[i] as string;
    if (!inComparisonForm(domain) || (i > 0 && !((raw[i - 1] as string) < domain))) return false;
  }
  return true;
}

/** Code-unit order, independent of locale, so every plan sorts the same everywhere. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
