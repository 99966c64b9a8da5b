/**
 * The bad-file corpus: every fixture under test/fixtures/policies/bad/ must produce exactly
 * the listed diagnostics (position, severity, code) with the listed words in the message.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPolicies } from '../../src/policy/index.js';

const BAD_DIR = fileURLToPath(new URL('../fixtures/policies/bad/', import.meta.url));

interface Expected {
  at: `${number}:${number}`;
  code: string;
  text: string;
  severity?: 'warning';
}

const e = (at: Expected['at'], code: string, text: string, severity?: 'warning'): Expected => ({ at, code, text, severity });

const WEBMAIL_400 = 'the service would reject it with 400';
const ALLOWED = 'allowed keys: scope, scopeType, scopeName, componentId, metadata, drift, domains';

const CORPUS: Record<string, Expected[]> = {
  '01-unknown-key.autojoin.yaml': [e('6:1', 'unknown-key', `unknown key "domain" (did you mean "domains"?); ${ALLOWED}`)],
  '02-unknown-key-case.autojoin.yaml': [
    e('1:1', 'missing-key', 'missing required key "componentId" (or set defaults.componentId in autojoin-sync.yaml)'),
    e('3:1', 'unknown-key', 'unknown key "componentID" (did you mean "componentId"?)'),
  ],
  '03-unknown-key-far.autojoin.yaml': [e('5:1', 'unknown-key', `unknown key "owner"; ${ALLOWED}`)],
  '04-missing-scope.autojoin.yaml': [e('2:1', 'missing-key', 'missing required key "scope"')],
  '05-missing-domains.autojoin.yaml': [e('1:1', 'missing-key', 'missing required key "domains" (the complete list of domains; [] clears autojoin)')],
  '06-missing-component.autojoin.yaml': [e('1:1', 'missing-key', 'missing required key "componentId"')],
  '07-domains-string.autojoin.yaml': [e('4:10', 'wrong-type', 'domains: expected a list of domains, got a string')],
  '08-scope-number.autojoin.yaml': [e('1:8', 'wrong-type', 'scope: expected a string, got a number (12345); quote it: scope: "12345"')],
  '09-domain-number.autojoin.yaml': [e('6:5', 'wrong-type', 'domains[1]: expected a domain name (a string), got a number (42)')],
  '10-scope-empty.autojoin.yaml': [e('1:8', 'invalid-value', 'scope: must not be empty')],
  '11-scopetype-slash.autojoin.yaml': [e('2:12', 'invalid-value', 'scopeType: must not contain "/"')],
  '12-scope-too-long.autojoin.yaml': [e('1:8', 'invalid-value', 'scope: must be at most 256 characters long')],
  '13-scope-null.autojoin.yaml': [e('1:1', 'wrong-type', 'scope: expected a string, got nothing')],
  '14-domains-mapping.autojoin.yaml': [e('5:3', 'wrong-type', 'domains: expected a list of domains, got a mapping')],
  '15-webmail.autojoin.yaml': [e('6:5', 'webmail-domain', `gmail.com is a webmail domain; ${WEBMAIL_400}`)],
  '16-webmail-normalized.autojoin.yaml': [e('5:5', 'webmail-domain', `yahoo.com is a webmail domain; ${WEBMAIL_400}`)],
  '17-public-suffix-com.autojoin.yaml': [e('5:5', 'public-suffix', 'anyone with an address at com could join')],
  '18-public-suffix-co-uk.autojoin.yaml': [e('4:23', 'public-suffix', 'co.uk is a public suffix')],
  '19-public-suffix-private.autojoin.yaml': [e('6:5', 'public-suffix', 'anyone with an address at github.io could join')],
  '20-email-address.autojoin.yaml': [e('5:5', 'email-address', `"bob@Acme.com" is an email address, not a domain; write the part after '@': acme.com`)],
  '21-url.autojoin.yaml': [e('5:5', 'url-not-domain', 'is a URL, not a domain; write just the host name: acme.com')],
  '22-url-no-scheme.autojoin.yaml': [e('5:5', 'url-not-domain', '"acme.com/jobs" is a URL, not a domain; write just the host name: acme.com')],
  '23-wildcard.autojoin.yaml': [e('5:5', 'wildcard-domain', 'wildcards are not supported; list each domain, e.g. acme.com')],
  '24-ipv4.autojoin.yaml': [e('5:5', 'ip-address', '"192.168.1.10" is an IP address')],
  '25-ipv6.autojoin.yaml': [e('5:5', 'ip-address', '"2001:db8::1" is an IP address')],
  '26-invalid-chars.autojoin.yaml': [e('5:5', 'invalid-domain', '"acme_corp" may hold only letters, digits and inner hyphens')],
  '27-label-too-long.autojoin.yaml': [e('5:5', 'invalid-domain', 'a label is 64 characters long; at most 63 are allowed')],
  '28-domain-too-long.autojoin.yaml': [e('5:5', 'invalid-domain', 'is 308 characters long; a domain has at most 253')],
  '29-empty-label.autojoin.yaml': [e('5:5', 'invalid-domain', '"acme..com" has an empty label')],
  '30-leading-hyphen.autojoin.yaml': [e('5:5', 'invalid-domain', '"-acme" may hold only letters, digits and inner hyphens')],
  '31-single-label.autojoin.yaml': [e('5:5', 'invalid-domain', '"localhost" is not a full domain name')],
  '32-empty-domain.autojoin.yaml': [e('5:5', 'invalid-domain', 'empty domain')],
  '33-duplicate-domain.autojoin.yaml': [
    e('5:5', 'duplicate-domain', 'duplicate domain acme.com (also at line 7)'),
    e('7:5', 'duplicate-domain', 'duplicate domain acme.com (also at line 5)'),
  ],
  '34-duplicate-after-normalizing.autojoin.yaml': [
    e('5:5', 'duplicate-domain', 'duplicate domain acme.com (also at line 6)'),
    e('6:5', 'duplicate-domain', 'duplicate domain acme.com (also at line 5)'),
  ],
  '35-subdomain-and-webmail.autojoin.yaml': [
    e('5:5', 'subdomain', 'eng.acme.com is a subdomain of acme.com', 'warning'),
    e('6:5', 'webmail-domain', `hotmail.com is a webmail domain; ${WEBMAIL_400}`),
  ],
  '36-duplicate-key.autojoin.yaml': [e('4:1', 'duplicate-key', 'duplicate key "scope" (first at line 1)')],
  '37-tab-indent.autojoin.yaml': [e('4:1', 'tab-indent', 'tab used for indentation')],
  '38-empty.autojoin.yaml': [e('1:1', 'empty-file', 'file is empty')],
  '39-only-comments.autojoin.yaml': [e('1:1', 'empty-file', 'only comments')],
  '40-list-document.autojoin.yaml': [e('1:1', 'not-a-mapping', 'a policy document must be a mapping of keys (scope, scopeType, componentId, domains), got a list')],
  '41-scalar-document.autojoin.yaml': [e('1:1', 'not-a-mapping', 'got a single value')],
  '42-alias-bomb.autojoin.yaml': [e('4:10', 'alias-limit', 'too many alias expansions (over 16)')],
  '43-not-utf8.autojoin.yaml': [e('3:15', 'not-utf8', 'file is not valid UTF-8 text')],
  '44-yaml-syntax.autojoin.yaml': [e('4:1', 'yaml-syntax', 'invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]')],
  '45-multidoc-second-bad.autojoin.yaml': [e('9:11', 'webmail-domain', `outlook.com is a webmail domain; ${WEBMAIL_400}`)],
  '46-combination.autojoin.yaml': [
    e('2:1', 'missing-key', 'missing required key "scopeType" ("default" when your system has no types, or set defaults.scopeType in autojoin-sync.yaml)'),
    e('3:1', 'unknown-key', 'unknown key "scopeTyp" (did you mean "scopeType"?)'),
    e('6:5', 'url-not-domain', 'write just the host name: www.acme.com'),
    e('7:5', 'webmail-domain', 'gmail.com is a webmail domain'),
    e('8:5', 'public-suffix', 'co.uk is a public suffix'),
    e('9:5', 'duplicate-domain', 'duplicate domain acme.com (also at line 10)'),
    e('10:5', 'duplicate-domain', 'duplicate domain acme.com (also at line 9)'),
  ],
  '47-bad-punycode.autojoin.yaml': [e('5:5', 'invalid-domain', '"xn--zz.com" is not valid punycode')],
  '48-numeric-tld.autojoin.yaml': [e('5:5', 'invalid-domain', 'the top-level label is numeric')],
  '49-scopename-number.autojoin.yaml': [e('3:12', 'wrong-type', 'scopeName: expected a string, got a number (2024); quote it: scopeName: "2024"')],
  '50-domains-null.autojoin.yaml': [e('4:1', 'wrong-type', 'domains: expected a list of domains, got nothing')],
  '51-duplicate-scope': [
    e('1:1', 'duplicate-scope', 'duplicate scope team/f51: also declared at 51-duplicate-scope/b.autojoin.yaml:2:1'),
    e('6:1', 'duplicate-scope', 'duplicate scope default/f51-other: also declared at 51-duplicate-scope/a.autojoin.yaml:11:1'),
    e('11:1', 'duplicate-scope', 'duplicate scope default/f51-other: also declared at 51-duplicate-scope/a.autojoin.yaml:6:1'),
    e('2:1', 'duplicate-scope', 'duplicate scope team/f51: also declared at 51-duplicate-scope/a.autojoin.yaml:1:1'),
  ],
};

describe('bad policy corpus', () => {
  it('covers every fixture in the directory, and at least 40 of them', () => {
    expect(readdirSync(BAD_DIR).sort()).toEqual(Object.keys(CORPUS).sort());
    expect(Object.keys(CORPUS).length).toBeGreaterThanOrEqual(40);
  });

  it.each(Object.entries(CORPUS))('%s', async (name, expected) => {
    const result = await loadPolicies([name], { cwd: BAD_DIR });
    const got = result.diagnostics.map((d) => ({ at: `${d.line}:${d.column}`, code: d.code, severity: d.severity }));
    const want = expected.map((x) => ({ at: x.at, code: x.code, severity: x.severity ?? 'error' }));
    expect(got).toEqual(want);
    result.diagnostics.forEach((d, i) => {
      expect(d.message).toContain(expected[i]?.text);
      expect(d.file.startsWith(name)).toBe(true);
      expect(d.message).not.toContain('\n');
    });
  });

  it('leaves every policy with an error out and keeps the valid ones', async () => {
    const result = await loadPolicies(['.'], { cwd: BAD_DIR });
    expect(result.policies.map((p) => p.key)).toEqual(['default/f45a']);
    expect(result.files).toHaveLength(52);
    expect(result.files[0]).toBe('01-unknown-key.autojoin.yaml');
    expect(result.files).toContain('51-duplicate-scope/b.autojoin.yaml');
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.length).toBe(Object.values(CORPUS).flat().filter((x) => !x.severity).length);
  });
});
