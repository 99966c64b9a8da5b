/**
 * Peak memory of `plan` as the estate grows: 10,000 scopes (each with 30 ordinary invitations in
 * its listing, so two pages per scope) beside 1,000 scopes in the same run. If the state reader
 * kept every invitation, memory would grow about 10× with the scopes; it should stay nearly flat.
 *
 * How RSS is measured, and why it is honest: the built CLI runs as its own process, exactly as a
 * user runs it, with one preloaded module (`node --import probe.mjs`) that on exit writes
 * `process.resourceUsage().maxRSS`, the kernel's high-water mark of that process's resident
 * set. It covers the whole run (load, policy parsing, reading, planning, rendering) and needs
 * no /usr/bin/time. The emulator serves from this process, so it is not counted.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateData, startEmulator } from '../src/emulator/index.js';
import type { BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const INVITATIONS_PER_SCOPE = 30;
const DOCS_PER_FILE = 100;

const PROBE = `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.RSS_PROBE_FILE, String(process.resourceUsage().maxRSS)));
`;

/** @returns policy YAML for scopes [from, to): the live domains, plus one new domain on every tenth scope. */
function policyDocuments(from: number, to: number): string {
  const docs: string[] = [];
  for (let n = from; n < to; n++) {
    const scope = `scope-${String(n).padStart(4, '0')}`;
    const extra = n % 10 === 0 ? `\n  - new.${scope}.example` : '';
    docs.push(`scope: ${scope}\nscopeType: team\ncomponentId: cmp-emulator\ndomains:\n  - d1.${scope}.example\n  - d2.${scope}.example${extra}\n`);
  }
  return docs.join('---\n');
}

async function writePolicies(dir: string, scopes: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (let first = 1; first <= scopes; first += DOCS_PER_FILE) {
    const last = Math.min(first + DOCS_PER_FILE, scopes + 1);
    await writeFile(path.join(dir, `group-${String(first).padStart(5, '0')}.autojoin.yaml`), policyDocuments(first, last));
  }
}

/** Runs `node --import probe ...args`, discarding stdout; @returns peak RSS in bytes. */
async function peakRss(tmp: string, args: string[], env: Record<string, string>): Promise<number> {
  const probe = path.join(tmp, 'probe.mjs');
  const out = path.join(tmp, `rss-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(probe, PROBE);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', pathToFileURL(probe).href, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: tmp, NO_COLOR: '1', RSS_PROBE_FILE: out, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
    child.on('error', reject);
    child.on('close', (status) => (status === 0 ? resolve(status) : reject(new Error(`exit ${String(status)}: ${stderr}`))));
  });
  void code;
  return Number(await readFile(out, 'utf8')) * 1024;
}

/** Peak RSS of `plan` over `scopes` scopes against a fresh in-process emulator. */
async function planPeakRss(tmp: string, scopes: number): Promise<number> {
  const data = generateData({ scopes, invitationsPerScope: INVITATIONS_PER_SCOPE, domainsPerScope: 2, seed: 7 });
  const emulator = await startEmulator({ port: 0, data });
  try {
    const dir = path.join(tmp, `policies-${scopes}`);
    await writePolicies(dir, scopes);
    return await peakRss(tmp, [CLI, 'plan', dir], { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: emulator.apiKey });
  } finally {
    await emulator.close();
  }
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/**
 * Peak RSS of a 10,000-scope plan beside a 1,000-scope plan and a bare Node process.
 * @returns one table row
 */
export async function benchMemory(): Promise<BenchRow[]> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'autojoin-bench-memory-'));
  try {
    const bare = await peakRss(tmp, ['-e', '0'], {});
    const small = await planPeakRss(tmp, 1_000);
    const large = await planPeakRss(tmp, 10_000);
    return [
      {
        name: `plan 10,000 scopes × ${INVITATIONS_PER_SCOPE} invitations: peak RSS`,
        value: mib(large),
        comparison: `1,000 scopes: ${mib(small)} (10× the scopes → ${(large / small).toFixed(2)}× the memory); bare \`node -e 0\`: ${mib(bare)}`,
      },
    ];
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
