/**
 * src/policy/domains.ts where test/policy/domains.test.ts does not reach: each finding's words,
 * the bounds of a domain's and a label's length, punycode, the part of a lookup that is its
 * domain, and the message a policy that lists the parent domain shows. Written for its mutation
 * score (docs/testing.md).
 *
 * checkDomain remembers findings by the text as written for the life of the process, and a
 * mutation run repeats these tests in one process: each text is checked with trailing spaces
 * no earlier check used (they are trimmed before any check), so every run computes its findings.
 */
import { describe, expect, it } from 'vitest';
import { checkDomain, domainPartOf, findingMessage, normalizeDomain, type DomainFinding } from '../../src/policy/domains.js';

const counter = globalThis as { domainsUnitsChecks?: number };

/** @returns the findings of `text`, computed now (not remembered from an earlier check) */
function fresh(text: string): readonly DomainFinding[] {
  counter.domainsUnitsChecks = (counter.domainsUnitsChecks ?? 0) + 1;
  return checkDomain(`${text}${' '.repeat(counter.domainsUnitsChecks)}`);
}

const messages = (text: string): string[] => fresh(text).map((finding) => `${finding.severity} ${finding.code}: ${finding.message}`);

const a63 = 'a'.repeat(63);
const of253 = `${a63}.${a63}.${a63}.${'b'.repeat(57)}.com`;

describe('checkDomain: what is no domain at all', () => {
  it.each([
    ['  ', 'error invalid-domain: empty domain'],
    [' Bob@Acme.com ', `error email-address: "Bob@Acme.com" is an email address, not a domain; write the part after '@': acme.com`],
    ['acme.com/x', 'error url-not-domain: "acme.com/x" is a URL, not a domain; write just the host name: acme.com'],
    ['acme.com/a://b', 'error url-not-domain: "acme.com/a://b" is a URL, not a domain; write just the host name: acme.com'],
    ['http://[x', 'error url-not-domain: "http://[x" is a URL, not a domain'],
    ['*.*.Acme.com', 'error wildcard-domain: "*.*.Acme.com": wildcards are not supported; list each domain, e.g. acme.com'],
    ['a.*.acme.com', 'error wildcard-domain: "a.*.acme.com": wildcards are not supported; list each domain, e.g. a.*.acme.com'],
    ['1.2.3.4', 'error ip-address: "1.2.3.4" is an IP address; autojoin needs an email domain such as acme.com'],
    ['[::1]', 'error ip-address: "[::1]" is an IP address; autojoin needs an email domain such as acme.com'],
  ])('%j: %s', (text, message) => {
    expect(messages(text)).toEqual([message]);
  });
});

describe('checkDomain: hostname syntax', () => {
  it.each([
    [of253, []],
    [`c${of253}`, ['error invalid-domain: "caaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa..." is 254 characters long; a domain has at most 253']],
    [`${a63}.com`, []],
    [`${a63}a.com`, ['error invalid-domain: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...": a label is 64 characters long; at most 63 are allowed']],
    ['a..com', ['error invalid-domain: "a..com" has an empty label (two dots in a row?)']],
    ['acme-.com', ['error invalid-domain: "acme-.com" is not a valid domain name: "acme-" may hold only letters, digits and inner hyphens']],
    ['acme.12', ['error invalid-domain: "acme.12" is not a valid domain name: the top-level label is numeric']],
    ['acme.a1', []],
    ['acme.1a', []],
    ['xn--zz.com', ['error invalid-domain: "xn--zz.com" is not valid punycode']],
    ['acme.xn--zz', ['error invalid-domain: "acme.xn--zz" is not valid punycode']],
    ['xn--bcher-kva.de', []],
    ['intranet', ['error invalid-domain: "intranet" is not a full domain name; expected something like intranet.com']],
  ])('%j: %j', (text, expected) => {
    expect(messages(text).filter((message) => !message.startsWith('warning subdomain'))).toEqual(expected);
  });

  it('a numeric label other than the last is no error', () => {
    expect(fresh('a.1.com').map((finding) => finding.code)).toEqual(['subdomain']);
  });
});

describe('checkDomain: the registries', () => {
  it.each([
    ['gmail.com', ['error webmail-domain: gmail.com is a webmail domain; the service would reject it with 400 (anyone can get an address there)']],
    ['co.uk', ['error public-suffix: co.uk is a public suffix, not one organization\'s domain; anyone with an address at co.uk could join']],
    ['acme.com', []],
    ['acme.github.io', []], // github.io is a private suffix: acme.github.io is one organization's
    ['gmаil.com', ['error homograph: xn--gmil-63d.com (gmаil.com) mixes scripts in one label (Latin and Cyrillic): the mark of a look-alike domain']],
  ])('%j: %j', (text, expected) => {
    expect(messages(text)).toEqual(expected);
  });

  it("a subdomain's warning, and without the hint where the policy lists the parent", () => {
    const [finding, ...rest] = fresh('eng.acme.com');
    expect(rest).toEqual([]);
    const exactly = 'eng.acme.com is a subdomain of acme.com; only addresses at exactly eng.acme.com match';
    expect(finding).toEqual({ severity: 'warning', code: 'subdomain', message: `${exactly} (list acme.com too if you meant it)`, parent: { domain: 'acme.com', message: exactly } });
    const subdomain = finding as DomainFinding;
    expect(findingMessage(subdomain, new Set(['acme.com']))).toBe(exactly);
    expect(findingMessage(subdomain, new Set(['other.com']))).toBe(subdomain.message);
  });

  it('a finding without a parent keeps its message whatever the policy lists', () => {
    const [webmail] = fresh('gmail.com');
    expect(findingMessage(webmail as DomainFinding, new Set(['gmail.com']))).toBe((webmail as DomainFinding).message);
  });
});

describe('normalizeDomain', () => {
  it.each([
    ['bob@acme.com.', 'bob@acme.com.'],
    ['A B.com.', 'a b.com.'],
    ['http://Acme.com.', 'http://acme.com.'],
    ['*.acme.com.', '*.acme.com.'],
    ['acme.com..', 'acme.com..'],
    [' Acme.COM. ', 'acme.com'],
  ])('drops the final dot of a hostname; keeps text that is no hostname only trimmed and lower-cased: %j', (raw, expected) => {
    expect(normalizeDomain(raw)).toBe(expected);
  });
});

describe('domainPartOf', () => {
  it.each([
    [' bob@acme.com ', 'acme.com'],
    ['mailto:bob@acme.com', 'acme.com'],
    ['a@b@c.com', 'c.com'],
    ['https://user@acme.com/x', 'acme.com'],
    ['https://acme.com', 'acme.com'],
    ['acme.com/path', 'acme.com'],
    ['http://[bad', 'http://[bad'],
    [' acme.com ', 'acme.com'],
    ['Bücher.DE', 'Bücher.DE'],
    ['bob@acme.com/a://b', 'acme.com/a://b'],
  ])('%j → %j', (text, part) => {
    expect(domainPartOf(text)).toBe(part);
  });
});
