/**
 * `validate --dns` over 10,000 distinct domains (1,000 policy files of 10), the built CLI spawned
 * as a user runs it, against a DNS server on 127.0.0.1 (dns2, in this process) that answers every
 * question after 20 ms. The latency-bound limit is lookups × 20 ms ÷ lookups in flight: the best
 * any client holding that many lookups in flight could do; the lookups are the ones the server
 * counted. Beside it, the same `validate` without --dns, measured in the same run: the share of
 * the run that is not DNS (start-up, reading and checking the files).
 * Goal (issue 26): ≤ 1.2× the limit.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Packet, UDPServer } from 'dns2';
import { DNS_CONCURRENCY } from '../src/run/dns.js';
import type { BenchOptions, BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const LATENCY_MS = 20;
const DOMAINS_PER_FILE = 10;
const GOAL = 1.2;

/** Runs the benchmark and returns its row for the `npm run bench` table. */
export async function benchDns(options: BenchOptions): Promise<BenchRow[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const domainCount = options.short ? 500 : 10_000;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-dns-'));
  const server = await startServer();
  try {
    await writePolicies(dir, domainCount);
    const offline = await timeValidate(dir, []);
    const online = await timeValidate(dir, ['--dns', '--dns-server', server.address]);
    const lookups = server.answered();
    if (lookups < domainCount) throw new Error(`the server answered ${lookups} lookups for ${domainCount} domains`);
    const limit = (lookups * LATENCY_MS) / DNS_CONCURRENCY / 1000;
    const ratio = online / limit;
    return [
      {
        name: `\`validate --dns\` ${domainCount.toLocaleString('en')} distinct domains @ ${LATENCY_MS} ms (spawned CLI)`,
        value: `${online.toFixed(2)} s`,
        comparison:
          `${ratio.toFixed(2)}× the latency-bound limit (${lookups.toLocaleString('en')} lookups × ${LATENCY_MS} ms ÷ ${DNS_CONCURRENCY} in flight = ${limit.toFixed(2)} s); ` +
          `the same \`validate\` without --dns: ${offline.toFixed(2)} s`,
        goal: `≤ ${GOAL}× the limit`,
        met: ratio <= GOAL,
      },
    ];
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A DNS server on 127.0.0.1 that answers every question with an MX record after {@link LATENCY_MS}. */
async function startServer(): Promise<{ address: string; answered: () => number; stop: () => Promise<void> }> {
  let answered = 0;
  const server = new UDPServer((request, send) => {
    setTimeout(() => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (question?.type === Packet.TYPE.MX) response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, exchange: `mx.${question.name}`, priority: 10 }));
      answered += 1;
      void send(response).catch(() => undefined);
    }, LATENCY_MS);
  });
  await server.listen(0, '127.0.0.1');
  return {
    address: `127.0.0.1:${server.address().port}`,
    answered: () => answered,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function writePolicies(dir: string, domainCount: number): Promise<void> {
  const files = Math.ceil(domainCount / DOMAINS_PER_FILE);
  await mkdir(path.join(dir, 'policies'), { recursive: true });
  for (let start = 0; start < files; start += 100) {
    const batch = Array.from({ length: Math.min(100, files - start) }, (_, i) => start + i);
    await Promise.all(
      batch.map((n) => {
        const domains = Array.from({ length: DOMAINS_PER_FILE }, (_, i) => `  - company-${n * DOMAINS_PER_FILE + i}.com`).join('\n');
        return writeFile(path.join(dir, 'policies', `team-${n}.autojoin.yaml`), `scope: team-${n}\nscopeType: team\ncomponentId: cmp_1\ndomains:\n${domains}\n`);
      }),
    );
  }
}

/** @returns the seconds one spawned `validate --quiet policies ...extra` took; it must exit 0 and report nothing. */
function timeValidate(dir: string, extra: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'validate', '--quiet', 'policies', ...extra], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0 || output !== '') reject(new Error(`validate ${extra.join(' ')} exited ${String(code)}: ${output.slice(0, 2000)}`));
      else resolve(seconds);
    });
  });
}
