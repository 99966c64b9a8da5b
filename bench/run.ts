/**
 * `npm run bench`: every benchmark in one run, printed as one markdown table.
 * Each figure stands beside its comparison measured in the same run (a naive
 * baseline and/or the latency-bound limit), never against numbers from elsewhere.
 */
import os from 'node:os';
import type { BenchRow } from './types.js';
import { benchValidate } from './validate.js';
import { benchReconcile } from './reconcile.js';
import { benchMemory } from './memory.js';
import { benchStartup } from './startup.js';
import { benchHistory } from './history.js';

type Bench = { name: string; run: () => Promise<BenchRow[]> };

const benches: Bench[] = [
  { name: 'validate', run: benchValidate },
  { name: 'reconcile', run: benchReconcile },
  { name: 'memory', run: benchMemory },
  { name: 'startup', run: benchStartup },
  { name: 'history', run: benchHistory },
  { name: 'listing', run: async () => (await import('./listing.js')).benchListing() },
];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const rows: BenchRow[] = [];
  for (const bench of benches) {
    if (only.length > 0 && !only.includes(bench.name)) continue;
    process.stderr.write(`bench: ${bench.name}…\n`);
    rows.push(...(await bench.run()));
  }
  process.stdout.write(renderTable(rows));
}

function renderTable(rows: BenchRow[]): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    `Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()}`,
    '',
    '| benchmark | result | compared in the same run |',
    '|---|---|---|',
    ...rows.map((row) => `| ${row.name} | ${row.value} | ${row.comparison} |`),
  ];
  return lines.join('\n') + '\n';
}

await main();
