/**
 * Domain normalization and the checks that keep a bad domain out of a merge: the service
 * matches the part of an email address after '@' exactly, so anything that is not a plain
 * registrable hostname (an IP, a wildcard, a URL, a webmail or public-suffix domain)
 * either never matches or lets far too many people in.
 */
import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { parse as parseDomain } from 'tldts';
import webmailList from 'email-providers/all.json' with { type: 'json' };
import { asciiDomain } from '../comparable-domain.js';
import { homographProblem } from '../homographs.js';
import type { Severity } from './types.js';
import { cutText } from '../redact.js';

// Built on first use (~9,000 entries, a few ms): commands that never check a domain skip it.
// The list spells a few domains in Unicode (müll.email); domains are compared in punycode.
let webmail: ReadonlySet<string> | undefined;

function webmailSet(): ReadonlySet<string> {
  webmail ??= new Set(webmailList.map(normalizeDomain));
  return webmail;
}

function isWebmail(domain: string): boolean {
  return webmailSet().has(domain);
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_DOMAIN_LENGTH = 253;

/** One problem with one domain; the caller adds the position. */
export interface DomainFinding {
  severity: Severity;
  code: string;
  message: string;
  /** A subdomain warning's parent domain, and its message without the hint to list that parent (for a policy that lists it already). */
  parent?: { domain: string; message: string };
}

/**
 * @returns the domain as the service stores it: trimmed, lower case, without a trailing
 * dot, Unicode labels in punycode (the platform's IDNA, see {@link asciiDomain}). Text that
 * is no hostname at all comes back only trimmed and lower-cased, for the checks to report.
 */
export function normalizeDomain(raw: string): string {
  const lower = raw.trim().toLowerCase();
  if (/[@/:*\s[\]]/.test(lower)) return lower;
  return withoutFinalDot(asciiDomain(lower));
}

// One final dot marks a fully qualified name; `acme.com..` keeps its dots for the checks to report.
function withoutFinalDot(domain: string): string {
  return /[^.]\.$/.test(domain) ? domain.slice(0, -1) : domain;
}

// Findings by the text as written: the same domain in many scopes (a company's own, listed by
// each of its teams) is checked once. Bounded, so a long-lived process never holds more.
const MAX_REMEMBERED = 4096;
const remembered = new Map<string, readonly DomainFinding[]>();

/**
 * @returns the finding's message for one policy: a subdomain warning drops its hint to list the
 *   parent domain when the policy lists it already
 * @param listed the policy's domains, normalized
 */
export function findingMessage(finding: DomainFinding, listed: { has(domain: string): boolean }): string {
  return finding.parent !== undefined && listed.has(finding.parent.domain) ? finding.parent.message : finding.message;
}

/** @returns every problem with one domain as written (at most one error and one warning). */
export function checkDomain(raw: string): readonly DomainFinding[] {
  let findings = remembered.get(raw);
  if (findings === undefined) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: the bound only limits memory; a cleared map computes the same findings again
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    findings = Object.freeze(findDomainProblems(raw).map((finding) => Object.freeze(finding)));
    remembered.set(raw, findings);
  }
  return findings;
}

function findDomainProblems(raw: string): DomainFinding[] {
  const shape = checkShape(raw.trim());
  if (shape) return [shape];
  const domain = normalizeDomain(raw);
  const syntax = checkSyntax(domain);
  if (syntax) return [syntax];
  const homograph = homographProblem(domain, webmailSet);
  if (homograph) return [error('homograph', homograph)];
  return checkRegistry(domain);
}

function error(code: string, message: string): DomainFinding {
  return { severity: 'error', code, message };
}

/** Things that are not a domain at all: empty, an email address, a URL, a wildcard, an IP. */
function checkShape(text: string): DomainFinding | null {
  if (text === '') return error('invalid-domain', 'empty domain');
  if (text.includes('@')) {
    const suggestion = normalizeDomain(text.slice(text.lastIndexOf('@') + 1));
    return error('email-address', `"${text}" is an email address, not a domain; write the part after '@': ${suggestion}`);
  }
  if (text.includes('/')) {
    // A URL: with a scheme (`https://…`) or without (`acme.com/path`)
    const host = hostOfUrl(text);
    const hint = host ? `; write just the host name: ${host}` : '';
    return error('url-not-domain', `"${text}" is a URL, not a domain${hint}`);
  }
  if (text.includes('*')) {
    const base = normalizeDomain(text.replace(/^(\*\.)+/, ''));
    return error('wildcard-domain', `"${text}": wildcards are not supported; list each domain, e.g. ${base}`);
  }
  if (isIP(text.replace(/^\[(.*)\]$/, '$1'))) {
    return error('ip-address', `"${text}" is an IP address; autojoin needs an email domain such as acme.com`);
  }
  return null;
}

/**
 * @returns the domain a lookup means, as validate's suggestion words it: the part after the last
 *   '@' of an email address, the host of a URL, else the text as it is
 */
export function domainPartOf(text: string): string {
  const trimmed = text.trim();
  if (trimmed.includes('@') && !/^[a-z][a-z0-9+.-]*:\/\//iu.test(trimmed)) return trimmed.slice(trimmed.lastIndexOf('@') + 1);
  if (trimmed.includes('/')) return hostOfUrl(trimmed) ?? trimmed;
  return trimmed;
}

function hostOfUrl(text: string): string | null {
  try {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
    return new URL(withScheme).hostname || null;
  } catch {
    return null;
  }
}

/** Hostname syntax of the normalized (ASCII) form: length, labels, letters-digits-hyphens. */
function checkSyntax(domain: string): DomainFinding | null {
  if (domain.length > MAX_DOMAIN_LENGTH) {
    return error('invalid-domain', `"${shorten(domain)}" is ${domain.length} characters long; a domain has at most ${MAX_DOMAIN_LENGTH}`);
  }
  const labels = domain.split('.');
  const long = labels.find((label) => label.length > 63);
  if (long) return error('invalid-domain', `"${shorten(domain)}": a label is ${long.length} characters long; at most 63 are allowed`);
  if (labels.some((label) => label === '')) return error('invalid-domain', `"${domain}" has an empty label (two dots in a row?)`);
  const bad = labels.find((label) => !LABEL.test(label));
  if (bad !== undefined) {
    return error(
      'invalid-domain',
      `"${domain}" is not a valid domain name: "${bad}" may hold only letters, digits and inner hyphens`,
    );
  }
  if (/^\d+$/.test(labels.at(-1) ?? '')) return error('invalid-domain', `"${domain}" is not a valid domain name: the top-level label is numeric`);
  if (labels.some((label) => label.startsWith('xn--') && !isValidPunycode(label))) {
    return error('invalid-domain', `"${domain}" is not valid punycode`);
  }
  return null;
}

/**
 * A punycode label must decode and encode back to itself. Checked label by label rather than
 * trusting domainToASCII to reject it: Node 24's IDNA passes `xn--zz` through unchanged where
 * Node 20 and 22 return ''.
 */
function isValidPunycode(label: string): boolean {
  const unicode = domainToUnicode(label);
  // Node 20 and 22 decode an invalid label to '', which encodes to '', never the label.
  return unicode !== label && domainToASCII(unicode) === label;
}

function shorten(text: string): string {
  return cutText(text, 40, '...');
}

/** Checks against the public-suffix and webmail lists. */
function checkRegistry(domain: string): DomainFinding[] {
  if (isWebmail(domain)) {
    return [error('webmail-domain', `${domain} is a webmail domain; the service would reject it with 400 (anyone can get an address there)`)];
  }
  const parsed = parseDomain(domain, { allowPrivateDomains: true });
  if (parsed.domain === null && (parsed.isIcann || parsed.isPrivate)) {
    return [error('public-suffix', `${domain} is a public suffix, not one organization's domain; anyone with an address at ${domain} could join`)];
  }
  if (!domain.includes('.')) {
    return [error('invalid-domain', `"${domain}" is not a full domain name; expected something like ${domain}.com`)];
  }
  if (parsed.domain && parsed.domain !== domain) {
    const exactly = `${domain} is a subdomain of ${parsed.domain}; only addresses at exactly ${domain} match`;
    const parent = Object.freeze({ domain: parsed.domain, message: exactly });
    return [{ severity: 'warning', code: 'subdomain', message: `${exactly} (list ${parsed.domain} too if you meant it)`, parent }];
  }
  return [];
}
