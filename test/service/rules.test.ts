/** Pure parts of src/service: the autojoin rule, base URL check, retry decisions, path segments. */
import { describe, expect, it } from 'vitest';
import {
  checkBaseUrl,
  domainsFromAutojoinState,
  domainsFromTargets,
  findActiveAutojoin,
  pathSegment,
  DEFAULT_RETRY_POLICY,
  type Invitation,
} from '../../src/service/index.js';
import { mayHaveReached, parseRetryAfterMs, retryDelayMs } from '../../src/service/retry.js';
import { withDeactivatedMetadata } from '../../src/service/autojoin-rule.js';
import type { LiveScope } from '../../src/service/types.js';

const autojoin = (id: string, fields: Partial<Invitation> = {}): Invitation => ({ id, invitationType: 'autojoin', ...fields });

describe('findActiveAutojoin', () => {
  it('takes the autojoin invitation that is not deactivated, wherever it is listed', () => {
    const listing: Invitation[] = [
      { id: 'a', invitationType: 'single_use' },
      autojoin('old', { deactivated: true }),
      { id: 'b', invitationType: 'multi_use', deactivated: false },
      autojoin('live', { deactivated: false }),
    ];
    expect(findActiveAutojoin(listing)?.id).toBe('live');
  });

  it('treats a missing deactivated flag as active and an explicit true as inactive', () => {
    expect(findActiveAutojoin([autojoin('x')])?.id).toBe('x');
    expect(findActiveAutojoin([autojoin('x', { deactivated: true })])).toBeNull();
    expect(findActiveAutojoin([{ id: 'y', invitationType: 'single_use' }])).toBeNull();
    expect(findActiveAutojoin([])).toBeNull();
  });

  it('prefers the most recently modified of two active ones, independent of order', () => {
    const older = autojoin('older', { modifiedAt: '2024-01-01T00:00:00.000Z' });
    const newer = autojoin('newer', { modifiedAt: '2024-06-01T00:00:00.000Z' });
    expect(findActiveAutojoin([older, newer])?.id).toBe('newer');
    expect(findActiveAutojoin([newer, older])?.id).toBe('newer');
  });

  it('compares modifiedAt as points in time, whatever ISO 8601 spelling the service uses', () => {
    // 02:00+02:00 is 00:00Z, an hour before 01:00Z; as text it would sort after it.
    const offset = autojoin('offset', { modifiedAt: '2024-06-01T02:00:00+02:00' });
    const utc = autojoin('utc', { modifiedAt: '2024-06-01T01:00:00Z' });
    expect(findActiveAutojoin([offset, utc])?.id).toBe('utc');
    expect(findActiveAutojoin([utc, offset])?.id).toBe('utc');
    // The same instant with and without milliseconds is a tie: the first listed stays.
    const plain = autojoin('plain', { modifiedAt: '2024-06-01T00:00:00Z' });
    const millis = autojoin('millis', { modifiedAt: '2024-06-01T00:00:00.000Z' });
    expect(findActiveAutojoin([millis, plain])?.id).toBe('millis');
    // A missing or unreadable modifiedAt never beats a readable one.
    expect(findActiveAutojoin([autojoin('none'), autojoin('bad', { modifiedAt: 'yesterday' }), utc])?.id).toBe('utc');
  });
});

describe('domains', () => {
  it('reads only domain targets, normalized, sorted and unique', () => {
    const invitation = autojoin('x', {
      target: [
        { type: 'domain', value: ' Acme.COM. ' },
        { type: 'email', value: 'someone@other.example' },
        { type: 'Domain', value: 'b.example' },
        { type: 'domain', value: 'acme.com' },
        { type: 'domain', value: '' },
      ],
    });
    expect(domainsFromTargets(invitation)).toEqual(['acme.com', 'b.example']);
    expect(domainsFromTargets(autojoin('none'))).toEqual([]);
    expect(domainsFromTargets(autojoin('null', { target: null }))).toEqual([]);
  });

  it('reads the domains of a call 2b answer the same way', () => {
    const state = { invitation: autojoin('x'), autojoinDomains: [{ id: '2', domain: 'Z.example' }, { id: '1', domain: 'a.example.' }] };
    expect(domainsFromAutojoinState(state)).toEqual(['a.example', 'z.example']);
    expect(domainsFromAutojoinState({ ...state, autojoinDomains: [{ id: '3', domain: 'B.example..' }, { id: '4', domain: 'b.example' }] })).toEqual(['b.example']);
  });
});

describe('checkBaseUrl', () => {
  it.each([
    ['https://invitations.example.com', 'https://invitations.example.com/'],
    ['https://invitations.example.com/', 'https://invitations.example.com/'],
    ['https://example.com/base/', 'https://example.com/base'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/'],
    ['http://127.1.2.3', 'http://127.1.2.3/'],
    ['http://localhost:3000/', 'http://localhost:3000/'],
    ['http://[::1]:9000', 'http://[::1]:9000/'],
    // The Python SDK's form: the API prefix is part of every path already, so it is dropped here.
    ['https://invitations.example.com/api/v1', 'https://invitations.example.com/'],
    ['https://example.com/base/api/v1/', 'https://example.com/base'],
    ['https://example.com/xapi/v1', 'https://example.com/xapi/v1'],
    ['https://example.com/api/v1/more', 'https://example.com/api/v1/more'],
  ])('accepts %s', (input, href) => {
    expect(checkBaseUrl(input).href).toBe(href);
  });

  it.each([
    ['http://example.com', /uses http:\/\/ to a host that is not loopback/u],
    ['http://10.0.0.1', /not loopback/u],
    ['http://0.0.0.0:80', /not loopback/u],
    ['http://localhost.evil.com', /not loopback/u],
    ['http://127.0.0.1.nip.io', /not loopback/u],
    ['ftp://example.com', /must start with https:\/\//u],
    ['not a url', /is not a valid URL/u],
    ['https://user:pa55word@example.com', /must not contain credentials/u],
    ['https://example.com/?key=abc', /must not have a query/u],
  ])('refuses %s', (input, message) => {
    expect(() => checkBaseUrl(input)).toThrow(message);
  });

  it('never echoes credentials in its error', () => {
    expect(() => checkBaseUrl('https://user:pa55word@example.com')).toThrow(/^(?!.*pa55word)/u);
    expect(() => checkBaseUrl('ht tp://user:pa55word@x')).toThrow(/^(?!.*pa55word)/u);
  });
});

describe('pathSegment', () => {
  it.each([
    ['acme-eng', 'acme-eng'],
    ['a/b', 'a%2Fb'],
    ['../x', '..%2Fx'],
    ['..', '%2E%2E'],
    ['.', '%2E'],
    ['a?b#c', 'a%3Fb%23c'],
    ['%2F', '%252F'],
  ])('encodes %s as one segment %s', (value, encoded) => {
    expect(pathSegment(value)).toBe(encoded);
  });
});

describe('retry decisions', () => {
  const policy = DEFAULT_RETRY_POLICY;
  it('backs off exponentially with jitter between half and all of the step', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs({ attempt, status: 503, elapsedMs: 0 }, policy, 0))).toEqual([125, 250, 500, 1000]);
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs({ attempt, status: 503, elapsedMs: 0 }, policy, 0.999))).toEqual([250, 500, 1000, 1999]);
  });

  it('retries the listed statuses and codes only, at most maxRetries times', () => {
    expect(retryDelayMs({ attempt: 1, status: 400, elapsedMs: 0 }, policy, 0)).toBeNull();
    expect(retryDelayMs({ attempt: 1, status: 401, elapsedMs: 0 }, policy, 0)).toBeNull();
    for (const status of [429, 500, 502, 503, 504]) expect(retryDelayMs({ attempt: 1, status, elapsedMs: 0 }, policy, 0)).not.toBeNull();
    expect(retryDelayMs({ attempt: 1, code: 'ECONNRESET', elapsedMs: 0 }, policy, 0)).not.toBeNull();
    expect(retryDelayMs({ attempt: 1, code: 'ENOTFOUND', elapsedMs: 0 }, policy, 0)).toBeNull();
    expect(retryDelayMs({ attempt: 4, status: 503, elapsedMs: 0 }, policy, 0)).not.toBeNull();
    expect(retryDelayMs({ attempt: 5, status: 503, elapsedMs: 0 }, policy, 0)).toBeNull();
  });

  // Written out, not read from retry.ts: dropping a code from the set must fail here.
  it.each([
    'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'AUTOJOIN_REQUEST_DEADLINE', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  ])('retries the transport error %s', (code) => {
    expect(retryDelayMs({ attempt: 1, code, elapsedMs: 0 }, policy, 0)).toBe(125);
  });

  it('retries a 429 without Retry-After quickly once (the pacing window already shrank), then backs off as usual', () => {
    expect([1, 2, 3].map((attempt) => retryDelayMs({ attempt, status: 429, elapsedMs: 0 }, policy, 0))).toEqual([16, 250, 500]);
    expect(retryDelayMs({ attempt: 1, status: 429, elapsedMs: 0 }, policy, 0.999)).toBe(31);
    expect(retryDelayMs({ attempt: 1, status: 503, elapsedMs: 0 }, policy, 0)).toBe(125);
  });

  it('waits at least Retry-After, and not at all past the total budget', () => {
    expect(retryDelayMs({ attempt: 1, status: 429, retryAfter: '3', elapsedMs: 0 }, policy, 0)).toBe(3000);
    expect(retryDelayMs({ attempt: 1, status: 429, retryAfter: '120', elapsedMs: 0 }, policy, 0)).toBeNull();
    expect(retryDelayMs({ attempt: 2, status: 503, elapsedMs: 59_900 }, policy, 0)).toBeNull();
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfterMs('2', now)).toBe(2000);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfterMs('Tue, 31 Dec 2024 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });

  const attempts: [{ code?: string; statusCode?: number }, boolean][] = [
    // No answer once connected, or a gateway's: the request may have been sent and stored.
    ...['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'AUTOJOIN_REQUEST_DEADLINE', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'].map((code): [{ code: string }, boolean] => [{ code }, true]),
    [{}, true],
    [{ code: 'UND_ERR_REQ_RETRY', statusCode: 502 }, true],
    [{ code: 'UND_ERR_REQ_RETRY', statusCode: 504 }, true],
    // The service's own answer, or a connection never made: nothing was stored.
    ...[429, 500, 503].map((statusCode): [{ code: string; statusCode: number }, boolean] => [{ code: 'UND_ERR_REQ_RETRY', statusCode }, false]),
    ...['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH', 'EHOSTDOWN', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT'].map((code): [{ code: string }, boolean] => [{ code }, false]),
  ];
  it.each(attempts)('a failed attempt %o may have reached the service: %s', (error, reached) => {
    expect(mayHaveReached(error)).toBe(reached);
  });
});

describe('withDeactivatedMetadata', () => {
  const none: LiveScope = { key: 'team/a', scope: 'a', scopeType: 'team', domains: [], autojoin: null };
  const marker = { 'autojoin-sync.owner': 'infra' };

  it('keeps the metadata of a deactivated invitation for a scope without an active one (the marker outlives a clear)', () => {
    expect(withDeactivatedMetadata(none, { autojoinDomains: [], invitation: autojoin('i', { deactivated: true, metadata: marker }) })).toEqual({ ...none, deactivatedMetadata: marker });
  });

  it('adds nothing for an active invitation, no invitation, or metadata that is absent or null', () => {
    const active: LiveScope = { ...none, domains: ['a.com'], autojoin: { invitationId: 'i', acceptsCount: 0 } };
    expect(withDeactivatedMetadata(active, { autojoinDomains: [{ id: 'd', domain: 'a.com' }], invitation: autojoin('i', { metadata: marker }) })).toBe(active);
    expect(withDeactivatedMetadata(none, { autojoinDomains: [], invitation: null })).toBe(none);
    expect(withDeactivatedMetadata(none, { autojoinDomains: [], invitation: autojoin('i', { deactivated: true }) })).toBe(none);
    expect(withDeactivatedMetadata(none, { autojoinDomains: [], invitation: autojoin('i', { deactivated: true, metadata: null }) })).toBe(none);
  });
});
