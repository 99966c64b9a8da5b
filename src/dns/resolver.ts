/**
 * The I/O edge of the DNS check: Node's own resolver (`dns.promises.Resolver`, c-ares), never a
 * hand-written client. Every lookup ends as an {@link Answer}, never a rejection: a timeout, a
 * SERVFAIL or the check's deadline is an answer too, which classify.ts judges.
 */
import { promises as dns } from 'node:dns';
import type { Answer, RecordType } from './types.js';

/** Looks names up; `close` cancels whatever is still in flight. */
export interface Lookup {
  lookup(name: string, type: RecordType): Promise<Answer>;
  /** Every lookup still waiting, and every later one, answers `deadline`. */
  expire(): void;
  close(): void;
}

/**
 * @param options `servers` for `setServers` (empty: the system's); `timeoutMs` caps each lookup, retries included
 */
export function createLookup(options: { servers: readonly string[]; timeoutMs: number }): Lookup {
  // c-ares resends once within the cap; the timer in settle() is what holds the cap.
  const resolver = new dns.Resolver({ timeout: Math.max(50, Math.floor(options.timeoutMs / 2)), tries: 2 });
  if (options.servers.length > 0) resolver.setServers([...options.servers]);
  // How to end each lookup in flight with `deadline`, and whether the deadline has passed.
  const waiting = new Set<(answer: Answer) => void>();
  let expired = false;
  return {
    async lookup(name, type) {
      if (expired) return DEADLINE;
      return settle(query(resolver, name, type), options.timeoutMs, waiting);
    },
    expire() {
      expired = true;
      for (const end of waiting) end(DEADLINE);
      resolver.cancel();
    },
    close: () => resolver.cancel(),
  };
}

const DEADLINE: Answer = { kind: 'unanswered', reason: 'deadline' };

async function query(resolver: dns.Resolver, name: string, type: RecordType): Promise<Answer> {
  try {
    return { kind: 'records', values: await recordsOf(resolver, name, type) };
  } catch (error) {
    return answerOf((error as NodeJS.ErrnoException).code);
  }
}

async function recordsOf(resolver: dns.Resolver, name: string, type: RecordType): Promise<string[]> {
  switch (type) {
    case 'MX':
      return (await resolver.resolveMx(name)).map((mx) => mx.exchange);
    case 'A':
      return resolver.resolve4(name);
    case 'AAAA':
      return resolver.resolve6(name);
    case 'TXT':
      // A TXT record is a list of strings of at most 255 bytes each; its text is their concatenation (RFC 7208 §3.3).
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  }
}

/** Resolver error codes (node:dns, from c-ares) as answers. */
function answerOf(code: string | undefined): Answer {
  switch (code) {
    case dns.NODATA:
      return { kind: 'nodata' };
    case dns.NOTFOUND:
      return { kind: 'nxdomain' };
    case dns.TIMEOUT:
      return { kind: 'unanswered', reason: 'timeout' };
    case dns.SERVFAIL:
      return { kind: 'unanswered', reason: 'servfail' };
    case dns.REFUSED:
      return { kind: 'unanswered', reason: 'refused' };
    case dns.CANCELLED:
      return DEADLINE;
    default:
      return { kind: 'unanswered', reason: code ?? 'unknown error' };
  }
}

/**
 * @param waiting where the check's deadline finds this lookup to end it
 * @returns the answer, a timeout after `timeoutMs`, or `deadline` when the check expires first
 */
function settle(answer: Promise<Answer>, timeoutMs: number, waiting: Set<(answer: Answer) => void>): Promise<Answer> {
  return new Promise((resolve) => {
    const done = (value: Answer): void => {
      clearTimeout(timer);
      waiting.delete(done);
      resolve(value);
    };
    const timer = setTimeout(() => done({ kind: 'unanswered', reason: 'timeout' }), timeoutMs);
    waiting.add(done);
    void answer.then(done);
  });
}
