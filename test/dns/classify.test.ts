/** The pure part of the DNS check: which lookup comes next, and what the answers mean. */
import { describe, expect, it } from 'vitest';
import { classifyDomain, nextLookup, type Answer, type DomainAnswers } from '../../src/dns/index.js';

const records = (...values: string[]): Answer => ({ kind: 'records', values });
const nodata: Answer = { kind: 'nodata' };
const nxdomain: Answer = { kind: 'nxdomain' };
const unanswered = (reason: string): Answer => ({ kind: 'unanswered', reason });

const plain = { strict: false };
const codes = (answers: DomainAnswers, judgement: { token?: string; strict: boolean } = plain): string[] =>
  classifyDomain('acme.test', answers, judgement).map((finding) => `${finding.severity}:${finding.code}`);

describe('nextLookup', () => {
  it('asks MX first, then A and AAAA only while no mail host is known', () => {
    expect(nextLookup({}, false)).toBe('MX');
    expect(nextLookup({ MX: records('mx.acme.test') }, false)).toBeNull();
    expect(nextLookup({ MX: nodata }, false)).toBe('A');
    expect(nextLookup({ MX: nodata, A: records('192.0.2.1') }, false)).toBeNull();
    expect(nextLookup({ MX: nodata, A: nodata }, false)).toBe('AAAA');
    expect(nextLookup({ MX: nodata, A: nodata, AAAA: nodata }, false)).toBeNull();
  });

  it('stops at a lookup that got no answer: the next would wait as long', () => {
    expect(nextLookup({ MX: unanswered('timeout') }, true)).toBeNull();
    expect(nextLookup({ MX: records('mx.acme.test'), TXT: unanswered('servfail') }, true)).toBeNull();
    expect(nextLookup({ MX: nodata, A: unanswered('timeout') }, false)).toBeNull();
  });

  it('asks TXT when verifying, and nothing more about a name that does not exist', () => {
    expect(nextLookup({ MX: records('mx.acme.test') }, true)).toBe('TXT');
    expect(nextLookup({ MX: records('mx.acme.test'), TXT: nodata }, true)).toBeNull();
    expect(nextLookup({ MX: nxdomain }, true)).toBeNull();
  });
});

describe('classifyDomain', () => {
  it('NXDOMAIN is an error: whoever registers the domain can join', () => {
    const [finding] = classifyDomain('acme.test', { MX: nxdomain }, plain);
    expect(finding).toEqual({ severity: 'error', code: 'dns-nxdomain', message: 'acme.test does not exist in DNS (NXDOMAIN): whoever registers it can join' });
  });

  it('an MX or an address is enough to receive mail; neither is a warning', () => {
    expect(codes({ MX: records('mx.acme.test') })).toEqual([]);
    expect(codes({ MX: nodata, A: records('192.0.2.1') })).toEqual([]);
    expect(codes({ MX: nodata, A: nodata, AAAA: records('2001:db8::1') })).toEqual([]);
    expect(codes({ MX: nodata, A: nodata, AAAA: nodata })).toEqual(['warning:dns-no-mail']);
    expect(classifyDomain('acme.test', { MX: nodata, A: nodata, AAAA: nodata }, plain)[0]?.message).toBe(
      'acme.test has no MX and no A/AAAA record: it receives no mail',
    );
  });

  it('a timeout or SERVFAIL that leaves the mail question open is a warning, an error when strict', () => {
    expect(codes({ MX: unanswered('timeout'), A: nodata, AAAA: nodata })).toEqual(['warning:dns-timeout']);
    expect(codes({ MX: unanswered('servfail'), A: unanswered('servfail'), AAAA: unanswered('servfail') })).toEqual(['warning:dns-unanswered']);
    expect(codes({ MX: unanswered('servfail'), A: unanswered('servfail'), AAAA: unanswered('servfail') }, { strict: true })).toEqual(['error:dns-unanswered']);
    expect(codes({ MX: unanswered('deadline') }, { strict: true })).toEqual(['error:dns-timeout']);
    expect(classifyDomain('acme.test', { MX: unanswered('timeout'), A: unanswered('servfail'), AAAA: nodata }, plain)[0]?.message).toBe(
      'no answer about acme.test (MX: timed out, A: SERVFAIL), so it could not be checked',
    );
  });

  it('an answer that settles the question makes a failed lookup beside it irrelevant', () => {
    expect(codes({ MX: unanswered('timeout'), A: records('192.0.2.1') })).toEqual([]);
  });

  it('with a token, the domain must publish autojoin-sync-verification=TOKEN itself', () => {
    const judgement = { token: 'T0k', strict: false };
    const mx = records('mx.acme.test');
    expect(codes({ MX: mx, TXT: records('v=spf1 -all', 'autojoin-sync-verification=T0k') }, judgement)).toEqual([]);
    expect(codes({ MX: mx, TXT: records('autojoin-sync-verification=other') }, judgement)).toEqual(['error:dns-unverified']);
    expect(codes({ MX: mx, TXT: nodata }, judgement)).toEqual(['error:dns-unverified']);
    expect(codes({ MX: mx, TXT: unanswered('timeout') }, judgement)).toEqual(['warning:dns-timeout']);
    expect(classifyDomain('acme.test', { MX: mx, TXT: nodata }, judgement)[0]?.message).toBe(
      'acme.test does not publish the TXT record "autojoin-sync-verification=T0k": no proof that the organization controls it',
    );
  });
});
