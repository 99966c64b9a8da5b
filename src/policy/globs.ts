/**
 * The two kinds of pattern rules use. Domain globs work on labels: `*` stands for one or more
 * whole labels, so `*.acme.com` matches `eu.acme.com` and `a.b.acme.com` but not `acme.com`.
 * Scope globs are `TYPE/ID` where `*` stands for any run of characters within its part (never
 * `/` in the type) and `?` for one character. Both compile to a RegExp once per rule.
 */
import { normalizeDomain } from './domains.js';

/** A compiled domain glob, and the pattern as written (for messages). */
export interface DomainGlob {
  pattern: string;
  test(domain: string): boolean;
}

const LABEL_TEXT = /^[a-z0-9_-]+$/;

/**
 * @returns the glob, or an error message when a label is neither `*` nor a domain label
 * (`*` inside a label, `acme.*.com` is fine, `ac*me.com` is not)
 */
export function domainGlob(pattern: string): DomainGlob | string {
  const labels = normalizeDomain(pattern.replaceAll('*', 'star-label-placeholder')).replaceAll('star-label-placeholder', '*').split('.');
  const parts: string[] = [];
  for (const label of labels) {
    if (label === '*') parts.push(String.raw`[^.]+(?:\.[^.]+)*`);
    else if (LABEL_TEXT.test(label)) parts.push(escapeRegExp(label));
    else return `"${pattern}" is not a domain glob: each label is a domain label or * (one or more labels)`;
  }
  const regexp = new RegExp(`^${parts.join(String.raw`\.`)}$`, 'u');
  return { pattern, test: (domain) => regexp.test(domain) };
}

/** A compiled scope glob. */
export interface ScopeGlob {
  pattern: string;
  test(key: string): boolean;
}

/** @returns the glob, or an error message when it is not `TYPE/ID`. */
export function scopeGlob(pattern: string): ScopeGlob | string {
  const slash = pattern.indexOf('/');
  if (slash <= 0 || slash === pattern.length - 1) return `"${pattern}" is not a scope glob: expected TYPE/ID, e.g. team/* or organization/acme-*`;
  const part = (text: string, any: string): string =>
    text.replace(/[*?]|[^*?]+/g, (run) => (run === '*' ? `${any}*` : run === '?' ? any : escapeRegExp(run)));
  const regexp = new RegExp(`^${part(pattern.slice(0, slash), '[^/]')}/${part(pattern.slice(slash + 1), '.')}$`, 'su');
  return { pattern, test: (key) => regexp.test(key) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, String.raw`\$&`);
}
