/**
 * Real DNS servers on 127.0.0.1 for the DNS trust check's tests, the same zones from either:
 *  - `dns2`: a server from the dev dependencies (dns2), always there after `npm ci`: the zones
 *    below answered by a function, NXDOMAIN and SERVFAIL as their response codes;
 *  - `dnsmasq`: Debian's dnsmasq, an extra where it is installed (CI installs it): zones it serves
 *    from a configuration the tests write (`--no-resolv --no-hosts`, a random high port, killed
 *    after), the slow names forwarded to a dns2 server that answers late or never, and SERVFAIL
 *    from its DNSSEC validation (an unsigned answer from its upstream, a second dnsmasq, for a name
 *    outside its local zones is BOGUS, which it answers with SERVFAIL).
 * DNS_SERVERS lists the kinds present here; a suite runs once per kind, so without dnsmasq the
 * dns2 runs still check everything and the dnsmasq runs show as skipped, by name.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Packet, UDPServer } from 'dns2';

/** dnsmasq's path, or null when it is not installed. */
export const DNSMASQ: string | null = ['/usr/sbin/dnsmasq', '/usr/bin/dnsmasq', '/sbin/dnsmasq'].find((file) => existsSync(file)) ?? whichDnsmasq();

function whichDnsmasq(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v dnsmasq'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : null;
}

/** The kinds of DNS server a fixture can be: dns2 always, dnsmasq where installed. */
export type DnsServerKind = 'dns2' | 'dnsmasq';

/** Every kind, and whether it is present here (`describe.skipIf(!present)` names a missing dnsmasq). */
export const DNS_SERVERS: readonly { kind: DnsServerKind; present: boolean }[] = [
  { kind: 'dns2', present: true },
  { kind: 'dnsmasq', present: DNSMASQ !== null },
];

/** The token the zones publish for the verified domain. */
export const TOKEN = 'tok-3f9c1d7e2b';

/**
 * The zones every DNS test asks about, all through one server:
 *  - good.test: MX · addr.test: an A record only · nomail.test: exists (a TXT record) with no MX, A or AAAA
 *  - verified.test: MX and the TXT record `autojoin-sync-verification=TOKEN` · unverified.test: MX and another TXT
 *  - nx.test and anything else under .test: NXDOMAIN
 *  - late.slow: an MX after 200 ms · any other name under .slow (stuck.slow…): no answer ever
 *  - broken.example: SERVFAIL
 */
export interface DnsFixture {
  /** `127.0.0.1:PORT` of the server to ask. */
  server: string;
  /** The delayed server's own address, and how many queries it got per name. */
  slow: { server: string; queries: Map<string, number> };
  stop(): Promise<void>;
}

const ROOT_TRUST_ANCHOR = '.,20326,8,2,E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D';

/** Starts the zones below on a server of `kind` (dns2 unless told). */
export async function startDnsFixture(kind: DnsServerKind = 'dns2'): Promise<DnsFixture> {
  return kind === 'dns2' ? startZoneServer() : startDnsmasqFixture();
}

/** NXDOMAIN and SERVFAIL (RFC 1035 §4.1.1 RCODE). */
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const;

type RecordKind = 'MX' | 'A' | 'TXT';

/** The names under .test that exist, and their records (any other name under .test: NXDOMAIN). */
const TEST_ZONE: Record<string, Partial<Record<RecordKind, string>>> = {
  'good.test': { MX: 'mail.good.test' },
  'addr.test': { A: '192.0.2.10' },
  'nomail.test': { TXT: 'v=spf1 -all' },
  'verified.test': { MX: 'mail.good.test', TXT: `autojoin-sync-verification=${TOKEN}` },
  'unverified.test': { MX: 'mail.good.test', TXT: 'autojoin-sync-verification=someone-else' },
};

/** The zones as one dns2 server; its `slow` part is itself. */
async function startZoneServer(): Promise<DnsFixture> {
  const queries = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const server = new UDPServer((request, send) => {
    const question = request.questions[0];
    const name = question?.name.toLowerCase() ?? '';
    queries.set(name, (queries.get(name) ?? 0) + 1);
    const response = Packet.createResponseFromRequest(request);
    const answer = (): void => void send(response).catch(() => undefined);
    if (name.endsWith('.slow')) {
      if (name !== 'late.slow') return; // never answered
      if (question?.type === Packet.TYPE.MX) response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, exchange: `mail.${name}`, priority: 10 }));
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, 200);
      timers.add(timer);
      return;
    }
    if (name === 'broken.example') response.header.rcode = RCODE.SERVFAIL;
    else if (!(name in TEST_ZONE)) response.header.rcode = RCODE.NXDOMAIN;
    else if (question) response.answers.push(...recordsOf(question, TEST_ZONE[name] ?? {}));
    answer();
  });
  await server.listen(0, '127.0.0.1');
  const address = `127.0.0.1:${server.address().port}`;
  return {
    server: address,
    slow: { server: address, queries },
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type DnsQuestion = Parameters<typeof Packet.createResourceFromQuestion>[0];
type DnsResource = ReturnType<typeof Packet.createResourceFromQuestion>;

/** The answer records of `question` from a name's records (none: NODATA). */
function recordsOf(question: DnsQuestion, records: Partial<Record<RecordKind, string>>): DnsResource[] {
  const answer = (record: Partial<DnsResource>): DnsResource[] => [Packet.createResourceFromQuestion(question, { ttl: 60, ...record })];
  if (question.type === Packet.TYPE.MX && records.MX) return answer({ exchange: records.MX, priority: 10 });
  if (question.type === Packet.TYPE.A && records.A) return answer({ address: records.A });
  if (question.type === Packet.TYPE.TXT && records.TXT) return answer({ data: records.TXT });
  return [];
}

/** The delayed server, the upstream dnsmasq and the dnsmasq the tests ask. */
async function startDnsmasqFixture(): Promise<DnsFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'autojoin-dns-'));
  // Never answered rather than late: dnsmasq would cache a late answer for the next test.
  const slow = await startDelayedServer((name) => (name === 'late.slow' ? 200 : null));
  const upstream = await startDnsmasq(dir, 'upstream', ['local=/example/', 'mx-host=broken.example,mail.broken.example,10']);
  const main = await startDnsmasq(dir, 'main', [
    'local=/test/',
    'mx-host=good.test,mail.good.test,10',
    'host-record=addr.test,192.0.2.10',
    'txt-record=nomail.test,"v=spf1 -all"',
    'mx-host=verified.test,mail.good.test,10',
    `txt-record=verified.test,"autojoin-sync-verification=${TOKEN}"`,
    'mx-host=unverified.test,mail.good.test,10',
    'txt-record=unverified.test,"autojoin-sync-verification=someone-else"',
    `server=/slow/${slow.server.replace(':', '#')}`,
    `server=${upstream.server.replace(':', '#')}`,
    'dnssec',
    `trust-anchor=${ROOT_TRUST_ANCHOR}`,
    'dnssec-check-unsigned',
  ]);
  return {
    server: main.server,
    slow: { server: slow.server, queries: slow.queries },
    stop: async () => {
      await Promise.all([main.stop(), upstream.stop(), slow.stop()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

interface Running {
  server: string;
  stop(): Promise<void>;
}

/** Starts dnsmasq on 127.0.0.1 at a free high port with `lines` as its configuration. */
async function startDnsmasq(dir: string, name: string, lines: readonly string[]): Promise<Running> {
  for (let attempt = 0; ; attempt += 1) {
    const port = await freeUdpPort();
    const conf = join(dir, `${name}.conf`);
    await writeFile(conf, [...lines, ''].join('\n'));
    const args = ['--keep-in-foreground', '--no-resolv', '--no-hosts', '--no-poll', `--conf-file=${conf}`, '--listen-address=127.0.0.1', '--bind-interfaces', `--port=${port}`, '--pid-file=', '--log-facility=-'];
    const child = spawn(DNSMASQ ?? 'dnsmasq', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const started = await waitForStart(child);
    if (started === true) return { server: `127.0.0.1:${port}`, stop: () => kill(child) };
    if (attempt >= 3 || !/address already in use/iu.test(started)) throw new Error(`dnsmasq (${name}) did not start: ${started}`);
  }
}

/** @returns true once dnsmasq says it started, else what it wrote before it exited. */
function waitForStart(child: ChildProcess): Promise<true | string> {
  return new Promise((resolve) => {
    let seen = '';
    const timer = setTimeout(() => resolve(`no start line within 5 s: ${seen}`), 5000);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      seen += chunk;
      if (seen.includes('started, version')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(seen);
    });
  });
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A UDP port that was free a moment ago (dnsmasq binds its own socket). */
async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** A dns2 server on 127.0.0.1 that answers every question with an MX record after `delayMs(name)`, or never when that is null. */
export async function startDelayedServer(delayMs: (name: string) => number | null): Promise<Running & { queries: Map<string, number>; inFlight: { now: number; max: number } }> {
  const queries = new Map<string, number>();
  const inFlight = { now: 0, max: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const server = new UDPServer((request, send) => {
    const question = request.questions[0];
    const name = question?.name.toLowerCase() ?? '';
    queries.set(name, (queries.get(name) ?? 0) + 1);
    const delay = delayMs(name);
    if (delay === null) return;
    inFlight.max = Math.max(inFlight.max, (inFlight.now += 1));
    const timer = setTimeout(() => {
      timers.delete(timer);
      inFlight.now -= 1;
      const response = Packet.createResponseFromRequest(request);
      if (question?.type === Packet.TYPE.MX) response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, exchange: `mail.${name}`, priority: 10 }));
      void send(response).catch(() => undefined);
    }, delay);
    timers.add(timer);
  });
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  return {
    server: `127.0.0.1:${port}`,
    queries,
    inFlight,
    stop: async () => {
      for (const timer of timers) clearTimeout(timer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
