import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDomain, normalizeDomain, parsePolicySources } from '../../src/policy/index.js';

describe('normalizeDomain', () => {
  it.each([
    ['  Acme.COM  ', 'acme.com'],
    ['acme.com.', 'acme.com'],
    ['Bücher.de', 'xn--bcher-kva.de'],
    ['ÉCOLE.fr', 'xn--cole-9oa.fr'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['bob@acme.com', 'bob@acme.com'],
    ['', ''],
  ])('%j → %j', (raw, expected) => {
    expect(normalizeDomain(raw)).toBe(expected);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.domain(), fc.string()), (raw) => {
        const once = normalizeDomain(raw);
        expect(normalizeDomain(once)).toBe(once);
      }),
      { numRuns: 300 },
    );
  });
});

describe('checkDomain', () => {
  it.each([
    ['acme.com', []],
    ['acme.co.uk', []],
    ['acme.github.io', []],
    ['Bücher.de', []],
    ['eng.acme.com', ['warning:subdomain']],
    ['gmail.com', ['error:webmail-domain']],
    ['GMAIL.COM.', ['error:webmail-domain']],
    ['co.uk', ['error:public-suffix']],
    ['github.io', ['error:public-suffix']],
    ['com', ['error:public-suffix']],
    ['[::1]', ['error:ip-address']],
    ['*.acme.com', ['error:wildcard-domain']],
    ['mailto:bob@acme.com', ['error:email-address']],
    ['http://acme.com', ['error:url-not-domain']],
    ['acme.com-', ['error:invalid-domain']],
  ])('%j → %j', (raw, expected) => {
    expect(checkDomain(raw).map((f) => `${f.severity}:${f.code}`)).toEqual(expected);
  });

  it('suggests the domain of an email address and of a URL', () => {
    expect(checkDomain('Alice@Bücher.de')[0]?.message).toContain(': xn--bcher-kva.de');
    expect(checkDomain('https://www.acme.com:8443/path?q=1')[0]?.message).toContain('host name: www.acme.com');
  });

  it('accepts any syntactically valid registrable domain that is not webmail', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z0-9]{2,20}$/), (label) => {
        const errors = checkDomain(`${label}-corp-test.com`).filter((f) => f.severity === 'error');
        expect(errors).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('webmail list spelled in Unicode', () => {
  it.each(['müll.email', 'xn--mll-hoa.email', 'MÜLL.email.'])('refuses %j', (raw) => {
    expect(checkDomain(raw).map((f) => f.code)).toEqual(['webmail-domain']);
  });
});

// Bug: normalizeDomain ran ASCII text through the WHATWG host parser, whose IPv4 rules
// rewrote `0x7f.1` into `127.0.0.1`: fmt changed the entry, and validate quoted a value
// nobody wrote.
describe('IPv4-like entries', () => {
  it.each([
    ['0x7f.1', '0x7f.1'],
    ['192.168.1', '192.168.1'],
    ['01.02.03.04', '01.02.03.04'],
  ])('normalizeDomain keeps %j as written', (raw, expected) => {
    expect(normalizeDomain(raw)).toBe(expected);
  });

  it('validate quotes the entry as written', () => {
    expect(checkDomain('0x7f.1')).toEqual([
      { severity: 'error', code: 'invalid-domain', message: '"0x7f.1" is not a valid domain name: the top-level label is numeric' },
    ]);
  });
});

describe('the subdomain warning in a policy', () => {
  const EXACTLY = 'eng.acme.com is a subdomain of acme.com; only addresses at exactly eng.acme.com match';
  const HINTED = `${EXACTLY} (list acme.com too if you meant it)`;
  const warnings = (domains: string[]): string[] =>
    parsePolicySources([{ file: 'a.autojoin.yaml', text: `scope: s\nscopeType: team\ncomponentId: c\ndomains: [${domains.join(', ')}]\n` }])
      .diagnostics.filter((d) => d.code === 'subdomain')
      .map((d) => d.message);

  it('suggests listing the parent only when the policy does not list it, before or after the subdomain', () => {
    expect(warnings(['eng.acme.com'])).toEqual([HINTED]);
    expect(warnings(['eng.acme.com', 'acme.com'])).toEqual([EXACTLY]);
    expect(warnings(['acme.com', 'Eng.Acme.com.'])).toEqual([EXACTLY]);
    // The finding of a domain is remembered across policies; the one before must not change it.
    expect(warnings(['eng.acme.com'])).toEqual([HINTED]);
  });
});
