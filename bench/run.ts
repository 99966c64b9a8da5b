/**
 * `npm run bench`: every benchmark in one run, printed as one markdown table (docs/performance.md's
 * performance table is this output). Each figure stands beside its comparison measured in the
 * same run (a naive baseline and/or the latency-bound limit) and its goal, never against numbers
 * from elsewhere.
 *
 *   npm run bench                      all benches, full size
 *   npm run bench -- startup memory    only these
 *   npm run bench -- --short           tiny sizes: checks that every bench runs (CI), not timing
 *   npm run bench -- --write-docs      also replace the table in docs/performance.md with this run's
 *                                      (--write-readme: its old name, same effect)
 */
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import type { BenchOptions, BenchRow } from './types.js';
import { benchValidate } from './validate.js';
import { benchReconcile } from './reconcile.js';
import { benchMemory } from './memory.js';
import { benchStartup } from './startup.js';
import { benchHistory } from './history.js';
import { benchEmulator } from './emulator.js';
import { benchChanged } from './changed.js';
import { benchGovernance } from './governance.js';
import { benchYaml } from './yaml.js';
import { benchDrift } from './drift.js';

interface Bench { name: string; run: (options: BenchOptions) => Promise<BenchRow[]> }

const benches: Bench[] = [
  { name: 'validate', run: benchValidate },
  { name: 'wide', run: async (options) => (await import('./wide.js')).benchWide(options) },
  { name: 'yaml', run: benchYaml },
  { name: 'reconcile', run: benchReconcile },
  { name: 'changed', run: benchChanged },
  { name: 'memory', run: benchMemory },
  { name: 'emulator', run: benchEmulator },
  { name: 'startup', run: benchStartup },
  { name: 'history', run: benchHistory },
  { name: 'governance', run: benchGovernance },
  { name: 'drift', run: benchDrift },
  { name: 'steady', run: async (options) => (await import('./steady.js')).benchSteady(options) },
  { name: 'shard', run: async (options) => (await import('./shard.js')).benchShard(options) },
  { name: 'listing', run: async () => (await import('./listing.js')).benchListing() },
  { name: 'dns', run: async (options) => (await import('./dns.js')).benchDns(options) },
  { name: 'notify', run: async (options) => (await import('./notify.js')).benchNotify(options) },
  { name: 'projects', run: async (options) => (await import('./projects.js')).benchProjects(options) },
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const options: BenchOptions = { short: args.includes('--short') };
  const only = args.filter((arg) => !arg.startsWith('--'));
  const rows: BenchRow[] = [];
  for (const bench of benches) {
    if (only.length > 0 && !only.includes(bench.name)) continue;
    process.stderr.write(`bench: ${bench.name}${options.short ? ' (short)' : ''}…\n`);
    rows.push(...(await bench.run(options)));
  }
  const table = renderTable(rows, options);
  process.stdout.write(table);
  if (args.includes('--write-docs') || args.includes('--write-readme')) await writeDocs(table);
}

/** The page that holds the table (the README did, before the reference moved to docs/). */
const PERFORMANCE_PAGE = new URL('../docs/performance.md', import.meta.url);
const HOW_TO_READ = `How to read it: the *latency-bound limit* is requests × latency ÷ concurrency, the best any client
with that many requests in flight could do at 20 ms a request; its requests are the ones the emulator
counted as served (extra pages included, 429 answers not). *Naive sequential* is a client doing the
same calls one at a time (timed on 200 scopes and scaled); at 16 in flight no client can be more than
about 16× faster than it (plus the naive client's own per-request overhead), so the issue's "≥ 25×
naive" cannot be met and is shown, not held. The *bare undici loop* sends the
same requests at the same concurrency against a fresh emulator and does nothing with the answers:
it is the floor this emulator and machine allow (loopback, the emulator's own CPU and timers on the
same two cores), so *tool ÷ bare* is the part of the gap that is the tool's own. *CPU per request* is
the CPU time of the phase divided by the requests served: the tool's (the bench process, every thread;
for a plan it includes loading the policy files and planning) and the emulator's (its /proc stat,
Linux only); spread over every core it bounds how short the run can be. The *machine floor* rows
send the plan's number of GETs with the bare loop to a static Node server that answers each with the
bytes of a call 2b answer after 20 ms and does nothing else: no undici client does better on this
machine, whatever the service. Peak RSS of \`plan\` is measured on the spawned CLI
process itself (its own high-water mark, \`VmHWM\` in /proc/self/status, written on exit by a preloaded
module; not \`maxRSS\`, which on Linux also counts the bench process the CLI was forked from), the
median of three runs of each plan, all three shown (it moves by a few MiB with when the collector runs). The
*steady state* rows run the whole CLI from a git repository of one policy file per scope and a
project file, committed, applied once through the CLI (so every scope carries this repository's
marker: owner, commit, applied day, keys), then a commit that changes half the scopes' domain
lists; each phase starts a fresh emulator child from the state that apply left, and each of their
times is the median of three rounds that run the tool and the loops in turn. Their *CPU* is
the spawned CLI's own (every thread, written on exit by the same preloaded module) and the
emulator's during the phase; spread over the cores it is the *floor* no overlap of requests can
beat on this machine, shown against the bare loop's time. The
machine is shared: figures that race the CPU (the reconcile rows at 64 in flight above all) move
with its load, so rerun on yours to compare.`;

/** Replaces the text between docs/performance.md's bench-table markers with this run's table. */
async function writeDocs(table: string): Promise<void> {
  const text = await readFile(PERFORMANCE_PAGE, 'utf8');
  const start = text.indexOf('<!-- bench-table -->');
  const end = text.indexOf('<!-- /bench-table -->');
  if (start === -1 || end === -1) throw new Error('docs/performance.md has no <!-- bench-table --> … <!-- /bench-table --> markers');
  const body = `<!-- bench-table -->\nRecorded with \`npm run bench -- --write-docs\`:\n\n${table.replace(/^Machine: (.*)$/mu, '**Machine:** $1')}\n${HOW_TO_READ}\n`;
  await writeFile(PERFORMANCE_PAGE, text.slice(0, start) + body + text.slice(end));
}

function renderTable(rows: BenchRow[], options: BenchOptions): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    `Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}` +
      (options.short ? ' (--short: sizes too small for the goals; this run only checks that the benches run)' : ''),
    '',
    '| benchmark | result | compared in the same run | goal |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.name} | ${row.value} | ${row.comparison} | ${goalCell(row, options)} |`),
  ];
  return lines.join('\n') + '\n';
}

function goalCell(row: BenchRow, options: BenchOptions): string {
  if (row.goal === undefined) return '';
  if (options.short || row.met === undefined) return row.goal;
  return `${row.goal} ${row.met ? '(met)' : '(**not met**)'}`;
}

await main();
