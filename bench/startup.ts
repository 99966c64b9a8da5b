/**
 * CLI start-up: `node dist/cli.js --version` and `--help`, each beside a bare `node -e 0` measured
 * in the same run, so the figure reads as "cost of loading the CLI" rather than a machine's speed.
 * Runs alternate between the commands so a burst of background load hits all of them alike.
 * Goal (issue 13): median within 1.5× of bare Node.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchOptions, BenchRow } from './types.js';

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const GOAL = 1.5;

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
  const upper = sorted[middle];
  if (upper === undefined) throw new Error('median of an empty list');
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/**
 * Median and max start-up of `--version` and `--help` over `runs` runs each (20; 3 when short),
 * each as a ratio to bare Node start-up in the same run.
 * @returns one row per command
 */
export async function benchStartup(options: BenchOptions): Promise<BenchRow[]> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const runs = options.short ? 3 : 20;
  const commands = { bare: ['-e', '0'], version: [CLI, '--version'], help: [CLI, '--help'] };
  for (const args of Object.values(commands)) timeNode(args); // warm the disk cache and the compile cache
  const times = { bare: [] as number[], version: [] as number[], help: [] as number[] };
  for (let run = 0; run < runs; run++) {
    for (const [name, args] of Object.entries(commands)) times[name as keyof typeof times].push(timeNode(args));
  }
  const bare = median(times.bare);
  return Promise.resolve(
    (['version', 'help'] as const).map((name) => ({
      name: `CLI start-up \`--${name}\` (${runs} runs)`,
      value: `median ${median(times[name]).toFixed(0)} ms, max ${Math.max(...times[name]).toFixed(0)} ms`,
      comparison: `${(median(times[name]) / bare).toFixed(2)}× bare \`node -e 0\` (median ${bare.toFixed(0)} ms, max ${Math.max(...times.bare).toFixed(0)} ms)`,
      goal: `≤ ${GOAL}× bare Node`,
      met: median(times[name]) / bare <= GOAL,
    })),
  );
}
