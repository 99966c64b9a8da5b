/**
 * CLI start-up: how long `node dist/cli.js --version` takes, beside a bare `node -e 0` measured in
 * the same run, so the figure reads as "cost of loading the bundle" rather than a machine's speed.
 * Runs alternate between the two commands so a burst of background load hits both alike.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const RUNS = 15;

/** @returns the wall time in milliseconds of one spawned `node ...args` that must exit 0. */
function timeNode(args: string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${String(result.status)}: ${String(result.stderr)}`);
  return elapsed;
}

/** @returns the median of a non-empty list of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Median start-up of the bundled CLI over 15 runs, and its ratio to a bare Node start-up.
 * @returns one table row
 */
export async function benchStartup(): Promise<BenchRow[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  timeNode(['-e', '0']);
  timeNode([CLI, '--version']);
  const bare: number[] = [];
  const cli: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    bare.push(timeNode(['-e', '0']));
    cli.push(timeNode([CLI, '--version']));
  }
  const cliMs = median(cli);
  const bareMs = median(bare);
  return Promise.resolve([
    {
      name: `CLI start-up (\`--version\`, median of ${RUNS})`,
      value: `${cliMs.toFixed(0)} ms`,
      comparison: `\`node -e 0\`: ${bareMs.toFixed(0)} ms; the bundle adds ${(cliMs - bareMs).toFixed(0)} ms (${(cliMs / bareMs).toFixed(2)}× bare Node)`,
    },
  ]);
}
