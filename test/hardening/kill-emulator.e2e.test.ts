/**
 * SIGKILL of the EMULATOR process in the middle of an apply, at seeded random points among the
 * writes: its data file (written temp + fsync + rename) must always parse and hold, per scope,
 * the state before or after that run; after a restart over the same file a rerun converges.
 * 3 kill points over 50 scopes always; 10 over 500 with AUTOJOIN_LONG_TESTS=1.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { seededRandom } from '../../src/emulator/prng.js';
import { runCli, spawnCli, startEmulatorProcess, stop, type EmulatorProcess } from '../support/cli.js';
import { LONG, declaredData, expectAllDeclared, expectDeclaredOrBefore, liveData, readDataFile, serviceEnv, sleep, startKillRun, useCleanups, writeEstate } from './support.js';

const SCOPES = LONG ? 500 : 50;
const KILL_POINTS = LONG ? 10 : 3;
const APPLY_ARGS = ['--concurrency', LONG ? '8' : '2'];
const LATENCY = ['--latency', LONG ? '5' : '10'];

const cleanups = useCleanups();

it(`killing the emulator at ${KILL_POINTS} points never corrupts its data file; reruns converge`, { timeout: LONG ? 600_000 : 60_000 }, async () => {
  const run = await startKillRun(cleanups, SCOPES, LATENCY, APPLY_ARGS);
  const { dir, dataFile, estate, readMs, fullMs } = run;
  // Restarted below after each kill: the cleanup stops whichever runs last.
  let emulator: EmulatorProcess = run.emulator;
  cleanups.push(() => stop(emulator));
  const random = seededRandom(19700101);
  for (let point = 1; point <= KILL_POINTS; point++) {
    const before = estate.declared(point - 1);
    const declared = estate.declared(point);
    await writeEstate(path.join(dir, 'policies'), declared);
    const apply = spawnCli(['apply', 'policies', '--yes', ...APPLY_ARGS], { cwd: dir, env: serviceEnv(emulator.url) });
    await sleep(readMs * 0.9 + random() * (fullMs - readMs * 0.9));
    expect((await stop(emulator, 'SIGKILL')).signal).toBe('SIGKILL');
    await stop(apply, 'SIGKILL');
    expectDeclaredOrBefore(await readDataFile(dataFile), declared, declaredData(before));

    emulator = await startEmulatorProcess(dir, dataFile, LATENCY);
    const rerun = await runCli(['apply', 'policies', '--yes'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(rerun.code, rerun.stderr).toBe(0);
    expectAllDeclared(await liveData(emulator.url, declared.keys()), declared);
  }
  const plan = await runCli(['plan', 'policies', '--detailed-exitcode'], { cwd: dir, env: serviceEnv(emulator.url) });
  expect(plan.code, plan.stdout).toBe(0);
});
