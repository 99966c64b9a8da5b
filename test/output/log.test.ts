/** The logger both front ends use: levels, request lines, progress on and off a terminal, colour rules. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colorEnabled, createLogger, formatRequest, logLevel, progressText, type LogLevel } from '../../src/output/log.js';
import { groupedNumber } from '../../src/text.js';

function capture(level: LogLevel, terminal = false): { lines: string[]; rewrites: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const rewrites: string[] = [];
  const logger = createLogger({ level, write: (line) => lines.push(line), rewrite: terminal ? (text) => rewrites.push(text) : undefined });
  return { lines, rewrites, logger };
}

const EVENT = { method: 'GET', path: '/api/v1/invitations/by-scope/team/a?start=19', status: 503, ms: 12.4, retry: 2 };

afterEach(() => {
  vi.useRealTimers();
});

describe('levels', () => {
  it('quiet keeps warnings and always-lines only; normal adds info; verbose adds debug and request lines', () => {
    const shown = (level: LogLevel): string[] => {
      const { lines, logger } = capture(level);
      logger.info('note');
      logger.warn('careful');
      logger.always('file:1:1: error: bad');
      logger.debug('detail');
      logger.request(EVENT);
      return lines;
    };
    expect(shown('quiet')).toEqual(['warning: careful', 'file:1:1: error: bad']);
    expect(shown('normal')).toEqual(['note', 'warning: careful', 'file:1:1: error: bad']);
    expect(shown('verbose')).toEqual(['note', 'warning: careful', 'file:1:1: error: bad', 'detail', formatRequest(EVENT)]);
  });

  it('--verbose and --quiet beat AUTOJOIN_LOG; AUTOJOIN_LOG=debug is verbose', () => {
    expect(logLevel({}, {})).toBe('normal');
    expect(logLevel({}, { AUTOJOIN_LOG: 'debug' })).toBe('verbose');
    expect(logLevel({}, { AUTOJOIN_LOG: 'QUIET' })).toBe('quiet');
    expect(logLevel({ quiet: true }, { AUTOJOIN_LOG: 'debug' })).toBe('quiet');
    expect(logLevel({ verbose: true }, { AUTOJOIN_LOG: 'quiet' })).toBe('verbose');
    expect(logLevel({}, { AUTOJOIN_LOG: 'chatty' })).toBe('normal');
  });
});

describe('request lines', () => {
  it('name method, path, status, milliseconds and the retry number; a failure names its code', () => {
    expect(formatRequest(EVENT)).toBe('http: GET /api/v1/invitations/by-scope/team/a?start=19 503 12 ms retry 2');
    expect(formatRequest({ method: 'POST', path: '/api/v1/invitations/autojoin', error: 'ECONNRESET', ms: 3, retry: 0 })).toBe(
      'http: POST /api/v1/invitations/autojoin failed (ECONNRESET) 3 ms',
    );
  });
});

describe('progress', () => {
  it('off a terminal: one line per 10 s with the latest count, grouped by thousands; none after done', () => {
    vi.useFakeTimers();
    const { lines, logger } = capture('normal');
    const progress = logger.progress('read');
    progress.update(1, 10_000);
    vi.advanceTimersByTime(9_999);
    expect(lines).toEqual([]);
    progress.update(4_200, 10_000);
    vi.advanceTimersByTime(1);
    expect(lines).toEqual(['read 4,200/10,000 scopes']);
    progress.update(9_000, 10_000);
    vi.advanceTimersByTime(10_000);
    progress.done();
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(['read 4,200/10,000 scopes', 'read 9,000/10,000 scopes']);
  });

  it('on a terminal: a live counter rewritten in place, cleared at the end; nothing with --quiet', () => {
    const { lines, rewrites, logger } = capture('normal', true);
    const progress = logger.progress('applied');
    progress.update(1, 2);
    progress.update(2, 2);
    progress.done();
    expect(lines).toEqual([]);
    expect(rewrites).toEqual([progressText('applied', 1, 2), progressText('applied', 2, 2), '']);
    const quiet = capture('quiet', true);
    quiet.logger.progress('read').update(1, 1);
    expect(quiet.rewrites).toEqual([]);
  });
});

describe('colour (clig.dev, no-color.org, force-color.org)', () => {
  const cases: [string, Parameters<typeof colorEnabled>[0], boolean][] = [
    ['a terminal', { env: {}, isTTY: true }, true],
    ['not a terminal', { env: {}, isTTY: false }, false],
    ['NO_COLOR=1', { env: { NO_COLOR: '1' }, isTTY: true }, false],
    ['NO_COLOR empty is unset', { env: { NO_COLOR: '' }, isTTY: true }, true],
    ['TERM=dumb', { env: { TERM: 'dumb' }, isTTY: true }, false],
    ['FORCE_COLOR=1 off a terminal', { env: { FORCE_COLOR: '1' }, isTTY: false }, true],
    ['FORCE_COLOR beats NO_COLOR', { env: { FORCE_COLOR: '1', NO_COLOR: '1' }, isTTY: false }, true],
    ['FORCE_COLOR=0', { env: { FORCE_COLOR: '0' }, isTTY: true }, false],
    ['--no-color beats FORCE_COLOR', { flag: false, env: { FORCE_COLOR: '1' }, isTTY: true }, false],
  ];
  it.each(cases)('%s', (_name, options, expected) => {
    expect(colorEnabled(options)).toBe(expected);
  });
});

describe('groupedNumber', () => {
  it('groups by thousands exactly as toLocaleString(\'en-US\') does, without ICU', () => {
    const values = [0, 7, 42, 999, 1000, 1001, 9999, 10000, 123456, 999999, 1000000, 4200, 30000, 1234567890, Number.MAX_SAFE_INTEGER];
    for (let n = 1; n < 1e15; n = n * 7 + 3) values.push(n);
    for (const value of values) expect(groupedNumber(value)).toBe(value.toLocaleString('en-US'));
  });
});

