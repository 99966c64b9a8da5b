import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LINUX, requires } from '../support/requires.js';
import { cpuSecondsOf, probe, type ProbeReport } from '../../bench/probe.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

/** A fixed amount of work: the CPU it takes does not depend on how loaded the machine is. */
const WORK = 'let x = 0; for (let i = 0; i < 5e7; i++) x = (x + i) % 1000003;';

/** Runs `node [probe] -e source` to its exit. */
async function runProbed(source: string): Promise<ProbeReport> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-probe-'));
  dirs.push(dir);
  const probed = await probe(dir);
  const child = spawn(process.execPath, [...probed.nodeArgs, '-e', source], { env: { ...process.env, ...probed.env }, stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return probed.read();
}

describe('the bench probe', () => {
  it('reports the CPU of every thread of the process, not only the main one', async () => {
    const idle = await runProbed('0');
    const mainOnly = await runProbed(WORK);
    const both = await runProbed(`const { Worker } = require('node:worker_threads'); new Worker(${JSON.stringify(WORK)}, { eval: true }); ${WORK}`);
    const work = mainOnly.cpuSeconds - idle.cpuSeconds;
    expect(work).toBeGreaterThan(0.05);
    // The worker's copy of the work is counted too (a worker's own start-up adds a little more).
    expect(both.cpuSeconds - mainOnly.cpuSeconds).toBeGreaterThan(0.7 * work);
  });

  it('reports the peak resident set, which grows with what the process held', async () => {
    const small = await runProbed('0');
    const large = await runProbed('const held = Buffer.alloc(200 * 2 ** 20, 1); held.length;');
    expect(large.peakBytes - small.peakBytes).toBeGreaterThan(150 * 2 ** 20);
  });

  it('reads the CPU another process has used from /proc, as that process counts its own', async (context) => {
    requires(context, LINUX);
    const source = `${WORK} const { user, system } = process.cpuUsage(); console.log((user + system) / 1e6); setTimeout(() => {}, 10000);`;
    const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const own = Number(await new Promise<string>((resolve) => child.stdout.setEncoding('utf8').once('data', resolve)));
      const read = cpuSecondsOf(child.pid) as number;
      expect(own).toBeGreaterThan(0.05);
      // /proc counts in clock ticks (10 ms), and the process printed before it was read.
      expect(read).toBeGreaterThan(own - 0.03);
      expect(read).toBeLessThan(own + 0.1);
    } finally {
      child.kill();
    }
    expect(cpuSecondsOf(2 ** 30)).toBeUndefined();
  });
});
