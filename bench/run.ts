/**
 * `npm run bench`: every benchmark in one run, printed as one markdown table (the README's
 * performance table is this output). Each figure stands beside its comparison measured in the
 * same run (a naive baseline and/or the latency-bound limit) and its goal, never against numbers
 * from elsewhere.
 *
 *   npm run bench                      all benches, full size
 *   npm run bench -- startup memory    only these
 *   npm run bench -- --short           tiny sizes: checks that every bench runs (CI), not timing
 */
import os from 'node:os';
import type { BenchOptions, BenchRow } from './types.js';
import { benchValidate } from './validate.js';
import { benchReconcile } from './reconcile.js';
import { benchMemory } from './memory.js';
import { benchStartup } from './startup.js';
import { benchEmulator } from './emulator.js';
import { benchChanged } from './changed.js';

type Bench = { name: string; run: (options: BenchOptions) => Promise<BenchRow[]> };

const benches: Bench[] = [
  { name: 'validate', run: benchValidate },
  { name: 'reconcile', run: benchReconcile },
  { name: 'changed', run: benchChanged },
  { name: 'memory', run: benchMemory },
  { name: 'emulator', run: benchEmulator },
  { name: 'startup', run: benchStartup },
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
  process.stdout.write(renderTable(rows, options));
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
