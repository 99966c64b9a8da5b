/**
 * What a spawned Node process used, as the bench reads it: one preloaded module
 * (`node --import probe.mjs …`) that writes, as the process exits, the kernel's high-water mark
 * of its resident set and the CPU time of all its threads (the main thread, a worker, libuv's
 * pool, V8's helpers; not its child processes), and the CPU time of a process the bench did not
 * start with the probe (the emulator), read from /proc.
 *
 * Node runs the preload in a worker thread too (it inherits the process's arguments), so a worker
 * writes a report as it ends; the main thread's, written last as the process exits, is the one read.
 *
 * Peak RSS is `VmHWM` from /proc/self/status, not `process.resourceUsage().maxRSS`: on Linux that
 * also keeps the high-water mark of the memory the child had before exec, a copy of the bench's
 * own process (tens of MB with its emulator), so every figure would read at least as large as
 * the bench. `maxRSS` is only the fallback where /proc is missing.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const PROBE = `import { readFileSync, writeFileSync } from 'node:fs';
const peakKiB = () => {
  try {
    return Number(/^VmHWM:\\s+(\\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
  } catch {
    return process.resourceUsage().maxRSS;
  }
};
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  writeFileSync(process.env.BENCH_PROBE_FILE, JSON.stringify({ peakBytes: peakKiB() * 1024, cpuSeconds: (user + system) / 1e6 }));
});
`;

/** What the probed process wrote as it exited. */
export interface ProbeReport {
  peakBytes: number;
  /** User and system CPU of the whole process, every thread. */
  cpuSeconds: number;
}

/** How to start one probed process, and how to read its report once it has exited. */
export interface Probe {
  /** Node's arguments that load the probe: put them before the script. */
  nodeArgs: string[];
  /** The variable that names the report's file: add it to the process's environment. */
  env: Record<string, string>;
  read: () => Promise<ProbeReport>;
}

/** Writes the probe module into `dir` and names a fresh report file there for one process. */
export async function probe(dir: string): Promise<Probe> {
  const module = path.join(dir, 'probe.mjs');
  const report = path.join(dir, `probe-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(module, PROBE);
  return {
    nodeArgs: ['--import', pathToFileURL(module).href],
    env: { BENCH_PROBE_FILE: report },
    read: async () => JSON.parse(await readFile(report, 'utf8')) as ProbeReport,
  };
}

let clockTicks: number | undefined;

/** Clock ticks a second (CPU times in /proc are in ticks); asked of getconf once, on first use. */
function ticksPerSecond(): number {
  return (clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100);
}

/**
 * The fields of a /proc/PID/stat text after the command name (which is in parentheses and may hold
 * spaces), so index 0 is `state` (field 3): utime is 11, stime 12, cutime 13, cstime 14.
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** @returns seconds of the CPU time in ticks at `fields[at]` and `fields[at + 1]` (user and system), or undefined */
export function statSeconds(fields: readonly string[], at: number): number | undefined {
  const ticks = Number(fields[at]) + Number(fields[at + 1]);
  return Number.isFinite(ticks) ? ticks / ticksPerSecond() : undefined;
}

/**
 * @returns the user and system CPU a running process has used so far (from /proc/PID/stat), or
 * undefined where there is no /proc
 */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  try {
    return statSeconds(statFields(readFileSync(`/proc/${pid}/stat`, 'utf8')), 11);
  } catch {
    return undefined;
  }
}

/** @returns the CPU seconds of this process's waited-for children so far (cutime and cstime); 0 without /proc */
export function childrenCpuSeconds(): number {
  try {
    return statSeconds(statFields(readFileSync('/proc/self/stat', 'utf8')), 13) ?? 0;
  } catch {
    return 0;
  }
}
