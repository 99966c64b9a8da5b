/**
 * Hostile input for the policy loader, as properties (fast-check): whatever bytes, YAML or
 * Unicode an author (or an attacker opening a pull request) puts in a policy file, the loader
 * returns diagnostics instead of throwing, answers within a time bound, and never lets a
 * webmail domain or a public suffix into `policies` (either would let anyone with an address
 * there join). Set AUTOJOIN_LONG_TESTS=1 for ten times the runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import { parse as parseDomain } from 'tldts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webmailList from 'email-providers/all.json' with { type: 'json' };
import { loadPolicies, normalizeDomain, parsePolicySources, type LoadResult, type PolicySource } from '../../src/policy/index.js';
import { LONG } from '../support/long.js';

const RUNS = LONG ? 2_000 : 200;
// The list holds a few Unicode names (müll.email); a policy's domains are punycode, so compare both spellings.
const WEBMAIL = new Set<string>(webmailList.flatMap((domain) => [domain, domainToASCII(domain)]));
const PUBLIC_SUFFIXES = [
  'com', 'net', 'org', 'io', 'de', 'uk', 'co.uk', 'gov.uk', 'com.au', 'co.jp', 'github.io', 'blogspot.com',
  'herokuapp.com', 'appspot.com', 'pages.dev', 'vercel.app', 'netlify.app', 'cloudfront.net', 's3.amazonaws.com', 'рф',
];

/**
 * Runs the loader's pure core, failing the property if it throws. No clock: a hang (alias bomb,
 * catastrophic regex) fails on the test's timeout, and a bound on time would fail on a busy machine.
 */
function parseOrFail(sources: PolicySource[]): LoadResult {
  return parsePolicySources(sources);
}

/** The invariant every accepted policy must keep, whatever the input was. */
function expectOnlySafeDomains(result: LoadResult): void {
  for (const policy of result.policies) {
    for (const domain of policy.domains) {
      expect(WEBMAIL.has(domain), `webmail domain ${domain} accepted`).toBe(false);
      const parsed = parseDomain(domain, { allowPrivateDomains: true });
      expect(parsed.domain, `public suffix ${domain} accepted`).not.toBeNull();
      expect(isIP(domain), `IP ${domain} accepted`).toBe(0);
      expect(domain).toMatch(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/);
      expect(normalizeDomain(domain), 'accepted domains are already normalized').toBe(domain);
    }
    expect(new Set(policy.domains).size).toBe(policy.domains.length);
  }
}

/**
 * Any text of up to `maxLength` code points, lone surrogates included: half of them ASCII (YAML's
 * syntax and the control characters), half anywhere in Unicode. Not fast-check's `unit: 'binary'`,
 * which builds a table of every code point (about 80 MB) and keeps it for the life of the worker
 * process, making each later fork of that process (every git call of the files after) dearer.
 */
function anyText(maxLength: number): fc.Arbitrary<string> {
  const codePoint = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0, max: 0x10ffff }));
  return fc.array(codePoint, { maxLength }).map((points) => String.fromCodePoint(...points));
}

function policyText(domains: string[], extra = ''): string {
  const list = domains.map((domain) => `  - ${JSON.stringify(domain)}\n`).join('');
  return `scope: acme-eng\nscopeType: team\ncomponentId: cmp_1\n${extra}domains:\n${list}`;
}

/** A hostile domain written the many ways the same name can be spelled. */
const spelled = (base: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(base, fc.constantFrom('plain', 'upper', 'dot', 'spaces', 'mixed', 'fullwidth')).map(([domain, how]) => {
    switch (how) {
      case 'upper': return domain.toUpperCase();
      case 'dot': return `${domain}.`;
      case 'spaces': return `  ${domain}\t`;
      case 'mixed': return Array.from(domain).map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('');
      case 'fullwidth': return Array.from(domain).map((c) => (/[a-z]/.test(c) ? String.fromCodePoint(c.charCodeAt(0) + 0xfee0) : c)).join('');
      default: return domain;
    }
  });

// The list holds one entry that is no domain at all (`ywoe@mailed.ro`); the loader rightly calls
// that an email address, so the webmail property draws from the list's real domains only.
const webmail = fc.constantFrom(...webmailList.filter((domain) => !domain.includes('@')));
const publicSuffix = fc.constantFrom(...PUBLIC_SUFFIXES);
const goodDomain = fc.domain().filter((domain) => parseDomain(domain).domain !== null && !WEBMAIL.has(domain.toLowerCase()));

/** Text made of YAML's sharp edges: anchors, aliases, tags, flow collections, tabs, documents. */
const yamlish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'scope: ', 'scopeType: ', 'componentId: ', 'domains:', 'scopeName: ', 'domain: ', '- ', '  - ', '\n', '\n  ', '\t',
        '---\n', '...\n', '&a ', '*a', '&b [*a, *a, *a, *a]', '<<: *a', '!!str ', '!!binary ', '!custom ', '{', '}', '[', ']',
        ', ', '"', "'", '#', '? ', ': ', '|\n', '>-\n', '%YAML 1.2\n', '\uFEFF', 'null', '~', 'true', '0x1F', '1e999',
        'acme.com', 'gmail.com', 'co.uk', 'xn--', '*.acme.com', 'https://acme.com/', 'bob@acme.com', '127.0.0.1', 'ａｃｍｅ.com',
      ),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(''));

describe('policy loader under hostile input', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'autojoin-hostile-policy-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('never throws on arbitrary Unicode text and keeps only safe domains', () => {
    fc.assert(
      fc.property(anyText(400), (text) => {
        expectOnlySafeDomains(parseOrFail([{ file: 'x.autojoin.yaml', text }]));
      }),
      { numRuns: RUNS },
    );
  });

  it('never throws on YAML-ish text made of sharp edges', () => {
    fc.assert(
      fc.property(yamlish, fc.boolean(), (text, withPrefix) => {
        const source = withPrefix ? `scope: s\nscopeType: team\ncomponentId: c\n${text}` : text;
        expectOnlySafeDomains(parseOrFail([{ file: 'y.autojoin.yaml', text: source }]));
      }),
      { numRuns: RUNS },
    );
  });

  it('reads random bytes from disk into diagnostics, never an exception', async () => {
    const file = path.join(tmp, 'random.autojoin.yaml');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2_000 }), fc.boolean(), async (bytes, withPrefix) => {
        const prefix = Buffer.from(withPrefix ? 'scope: s\nscopeType: team\ncomponentId: c\ndomains:\n  - ' : '');
        await writeFile(file, Buffer.concat([prefix, Buffer.from(bytes)]));
        const result = await loadPolicies([file], { cwd: tmp });
        expect(result.files).toEqual(['random.autojoin.yaml']);
        expectOnlySafeDomains(result);
      }),
      { numRuns: LONG ? 500 : 60 },
    );
  });

  it('never accepts a webmail domain, however it is spelled or hidden among good ones', () => {
    fc.assert(
      fc.property(spelled(webmail), fc.array(goodDomain, { maxLength: 5 }), fc.nat(), (bad, good, at) => {
        const domains = [...good];
        domains.splice(at % (good.length + 1), 0, bad);
        const result = parseOrFail([{ file: 'w.autojoin.yaml', text: policyText(domains) }]);
        expect(result.policies).toEqual([]);
        expect(result.diagnostics.map((d) => d.code)).toContain('webmail-domain');
      }),
      { numRuns: RUNS },
    );
  });

  it('never accepts the webmail domains the list spells in Unicode (müll.email), in either spelling', () => {
    const unicode = webmailList.filter((domain) => /[^ -~]/.test(domain));
    expect(unicode.length).toBeGreaterThan(0);
    for (const domain of unicode.flatMap((name) => [name, domainToASCII(name)])) {
      const result = parseOrFail([{ file: 'm.autojoin.yaml', text: policyText([domain]) }]);
      expect(result.policies, `${domain} accepted`).toEqual([]);
      expect(result.diagnostics.map((d) => d.code)).toContain('webmail-domain');
    }
  });

  it('never accepts a public suffix, however it is spelled', () => {
    fc.assert(
      fc.property(spelled(publicSuffix), fc.array(goodDomain, { maxLength: 3 }), (bad, good) => {
        const result = parseOrFail([{ file: 'p.autojoin.yaml', text: policyText([...good, bad]) }]);
        expect(result.policies).toEqual([]);
        expect(result.diagnostics.some((d) => d.severity === 'error' && d.line === 5 + good.length)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('random Unicode domains either load as normalized ASCII hostnames or are refused with a diagnostic', () => {
    const label = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
    const unicodeDomain = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
    fc.assert(
      fc.property(fc.array(fc.oneof(unicodeDomain, goodDomain, spelled(webmail), spelled(publicSuffix)), { minLength: 1, maxLength: 6 }), (domains) => {
        const result = parseOrFail([{ file: 'u.autojoin.yaml', text: policyText(domains) }]);
        expectOnlySafeDomains(result);
        const [first] = result.policies;
        if (!first) expect(result.diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThan(0);
        else expect(first.domains.length).toBeLessThanOrEqual(domains.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers an alias bomb and a 1 MiB wall of text within the bound', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
      .concat(Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`))
      .join('\n');
    const bombResult = parseOrFail([{ file: 'bomb.autojoin.yaml', text: bomb }]);
    expect(bombResult.policies).toEqual([]);
    expect(bombResult.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    const wall = parseOrFail([{ file: 'wall.autojoin.yaml', text: 'domains:\n' + '  - a.acme.com\n'.repeat(80_000) }]);
    expect(wall.policies).toEqual([]);
    expect(wall.diagnostics.length).toBeGreaterThan(0);
  });
});
