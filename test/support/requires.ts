/**
 * Tests that need something this machine may lack (a tool such as `script` or dnsmasq, Linux's
 * /proc, an outward network address) say so with {@link requires}: the test is skipped with its
 * reason as the skip's note, which the summary reporter (test/support/summary-reporter.ts) prints,
 * one line per skipped test, and adds to CI's job summary. A missing tool is a failure in CI
 * (`CI` set): .ci/run installs every tool, so a skip there would hide a test that never ran.
 */
import { spawnSync } from 'node:child_process';

/** Something a test needs; `tool` marks what CI installs (a failure there when absent). */
export interface Need {
  /** Present on this machine? */
  present: boolean;
  /** What is missing, said as the skip's note: "`script` (util-linux) is not installed". */
  reason: string;
  /** True for an installable tool: absent under CI, the test fails instead of skipping. */
  tool?: boolean;
}

/** The part of vitest's test context used here. */
interface SkipContext {
  skip(note?: string): never;
}

/** Skips the running test with `need.reason` unless it is present; in CI a missing tool throws instead. */
export function requires(context: SkipContext, need: Need): void {
  if (need.present) return;
  if (need.tool && process.env.CI) throw new Error(`${need.reason}: CI installs it (.ci/run), so this test fails rather than skips`);
  context.skip(need.reason);
}

/** True when `command args` runs and exits 0. */
export function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** util-linux `script`, which gives the CLI a pseudo-terminal (Debian: bsdutils, which is essential). */
export const SCRIPT: Need = {
  present: runs('script', ['--version']),
  reason: '`script` (util-linux; Debian package bsdutils) is not installed, so no pseudo-terminal can be made',
  tool: true,
};

/** Linux, where /proc tells a process's start time and CPU use. */
export const LINUX: Need = { present: process.platform === 'linux', reason: `needs Linux's /proc (this is ${process.platform})` };
