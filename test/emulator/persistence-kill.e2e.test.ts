/**
 * The emulator's data file when its process is killed mid-write: the one case of the data file
 * suite that starts and kills a process, so it runs in the end-to-end tier (persistence.test.ts
 * holds the rest, in-process).
 */
import { spawn } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startEmulator, type EmulatorData } from '../../src/emulator/index.js';
import { loadDataFile } from '../../src/emulator/store.js';
import { tempDirOfTest } from '../support/temp.js';

describe('data file', () => {
  it('never leaves a torn file when the process is killed mid-write (SIGKILL)', async () => {
    const dir = tempDirOfTest('emulator-kill-');
    const file = join(dir, 'emulator.json');
    const script = fileURLToPath(new URL('./fixtures/serve.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8').once('data', (line: string) => resolve(line.trim()));
        child.once('exit', () => reject(new Error('emulator child exited early')));
      });
      const domains = Array.from({ length: 3000 }, (_, i) => `host-${i}.example.com`);
      const syncs = Array.from({ length: 30 }, (_, i) =>
        fetch(`${url}/api/v1/invitations/autojoin`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'local-emulator-key' },
          body: JSON.stringify({ domains, scope: `s${i}`, scopeType: 'team', componentId: 'c' }),
        }).then((response) => response.status, () => 0),
      );
      await syncs[3];
      child.kill('SIGKILL');
      await Promise.all(syncs);
    } finally {
      child.kill('SIGKILL');
    }
    // The state on disk as a restart would see it: the data file with its journal applied.
    const state = (await loadDataFile(file)) as EmulatorData;
    expect(state.formatVersion).toBe(1);
    expect(Object.keys(state.scopes).length).toBeGreaterThanOrEqual(1);
    for (const scope of Object.values(state.scopes)) expect(scope.autojoin?.domains).toHaveLength(3000);
    // A restart sweeps temp files the killed process may have left behind.
    await writeFile(join(dir, '.emulator.json.999999999.1.tmp'), '{"torn');
    const restarted = await startEmulator({ dataFile: file });
    await restarted.close();
    expect(await readdir(dir)).toEqual(['emulator.json']);
  });
});
