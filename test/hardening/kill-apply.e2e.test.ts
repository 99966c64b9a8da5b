/**
 * SIGKILL of the apply process at seeded random points among its writes (the emulator runs as
 * its own process, so the kill hits only the client): every scope must be as declared or as
 * before, the emulator's data file must parse, and a rerun must converge. 3 kill points over
 * 50 scopes always; 10 over 500 with AUTOJOIN_LONG_TESTS=1. The kill times come from one timed
 * run, which a busy machine can make wrong, so while no kill has landed among the writes more
 * points are tried, up to three times as many.
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { seededRandom } from '../../src/emulator/prng.js';
import { runCli, spawnCli, stop } from '../support/cli.js';
import { LONG, declaredData, expectAllDeclared, expectDeclaredOrBefore, liveData, readDataFile, serviceEnv, sleep, startKillRun, useCleanups, writeEstate } from './support.js';

const SCOPES = LONG ? 500 : 50;
const KILL_POINTS = LONG ? 10 : 3;
const MAX_KILL_POINTS = 3 * KILL_POINTS;
// Few connections and some latency stretch the writes, so the kills land among them.
const APPLY_ARGS = ['--concurrency', LONG ? '8' : '2'];
const LATENCY = ['--latency', LONG ? '5' : '10'];

const cleanups = useCleanups();

it(`killing apply at ${KILL_POINTS} points leaves each scope as declared or as before; reruns converge`, { timeout: LONG ? 900_000 : 120_000 }, async () => {
  const { dir, dataFile, estate, emulator, readMs, fullMs } = await startKillRun(cleanups, SCOPES, LATENCY, APPLY_ARGS);
  const env = serviceEnv(emulator.url);
  const random = seededRandom(20240601);
  let partial = 0;
  for (let point = 1; point <= KILL_POINTS || (partial === 0 && point <= MAX_KILL_POINTS); point++) {
    const before = estate.declared(point - 1);
    const declared = estate.declared(point);
    await writeEstate(path.join(dir, 'policies'), declared);
    const apply = spawnCli(['apply', 'policies', '--yes', ...APPLY_ARGS], { cwd: dir, env });
    await sleep(readMs * 0.9 + random() * (fullMs - readMs * 0.9));
    const killed = await stop(apply, 'SIGKILL');
    await readDataFile(dataFile);

    const pending = expectDeclaredOrBefore(await liveData(emulator.url, declared.keys()), declared, declaredData(before));
    const changed = [...declared].filter(([key, domains]) => JSON.stringify(before.get(key)) !== JSON.stringify(domains)).length;
    if (killed.signal === 'SIGKILL' && pending.length > 0 && pending.length < changed) partial++;

    const rerun = await runCli(['apply', 'policies', '--yes'], { cwd: dir, env });
    expect(rerun.code, rerun.stderr).toBe(0);
    expectAllDeclared(await liveData(emulator.url, declared.keys()), declared);
    await readDataFile(dataFile);
  }
  expect(partial, 'no kill landed among the writes').toBeGreaterThan(0);
  const plan = await runCli(['plan', 'policies', '--detailed-exitcode'], { cwd: dir, env });
  expect(plan.code, plan.stdout).toBe(0);
});
