/**
 * SIGKILL of the EMULATOR process in the middle of an apply, at seeded random points among the
 * writes: its data file (written temp + fsync + rename) must always parse and hold, per scope,
 * the state before or after that run; after a restart over the same file a rerun converges.
 * 3 kill points over 50 scopes always; 10 over 500 with AUTOJOIN_LONG_TESTS=1.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import {
  LONG,
  declaredData,
  expectAllDeclared,
  expectDeclaredOrBefore,
  liveData,
  makeEstate,
  measureApply,
  readDataFile,
  seeded,
  serviceEnv,
  sleep,
  spawnCli,
  startEmulatorProcess,
  stop,
  tempDir,
  writeEstate,
  type EmulatorProcess,
} from './support.js';

const SCOPES = LONG ? 500 : 50;
const KILL_POINTS = LONG ? 10 : 3;
const APPLY_ARGS = ['--concurrency', LONG ? '8' : '2'];
const LATENCY = ['--latency', LONG ? '5' : '10'];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it(`killing the emulator at ${KILL_POINTS} points never corrupts its data file; reruns converge`, { timeout: LONG ? 600_000 : 60_000 }, async () => {
  const dir = await tempDir(cleanups);
  const dataFile = path.join(dir, 'emulator.json');
  const estate = makeEstate(SCOPES);
  await writeFile(dataFile, JSON.stringify(estate.seed));
  let emulator: EmulatorProcess = await startEmulatorProcess(dir, dataFile, LATENCY);
  cleanups.push(() => stop(emulator));

  await writeEstate(path.join(dir, 'policies'), estate.declared(0));
  const { readMs, fullMs } = await measureApply(dir, emulator.url, APPLY_ARGS);
  const random = seeded(19700101);
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
