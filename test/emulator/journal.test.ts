/**
 * The emulator's journal: a write appends to `<data file>.journal` and leaves the data file
 * alone until the journal is compacted (on start and stop); a restart replays it, skipping only
 * a torn last line.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator } from '../../src/emulator/index.js';
import { journalFileOf } from '../../src/emulator/journal.js';
import { loadDataFile } from '../../src/emulator/store.js';
import { startPeer, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const record = (scope: string, nextId: number) =>
  JSON.stringify({ key: `team/${scope}`, scope: { scopeType: 'team', scope, autojoin: null, invitations: [] }, nextId });

describe('journal', () => {
  it('appends each write and rewrites the data file only on stop', async () => {
    const file = join(dir, 'emulator.json');
    const peer = await startPeer({ dataFile: file });
    try {
      const before = await readFile(file, 'utf8');
      expect((await peer.sync({ domains: ['a.example.com'], scope: 'one' })).status).toBe(200);
      expect((await peer.sync({ domains: ['b.example.com'], scope: 'two' })).status).toBe(200);
      expect(await readFile(file, 'utf8')).toBe(before);
      const lines = (await readFile(journalFileOf(file), 'utf8')).trim().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { key: string }).key)).toEqual(['team/one', 'team/two']);
      expect(await loadDataFile(file)).toEqual(peer.emulator.data());
    } finally {
      await peer.emulator.close();
    }
    expect(await readdir(dir)).toEqual(['emulator.json']);
    expect(Object.keys((JSON.parse(await readFile(file, 'utf8')) as { scopes: object }).scopes)).toEqual(['team/one', 'team/two']);
  });

  it('is replayed and compacted on start; a torn last line (an unanswered write) is skipped', async () => {
    const file = join(dir, 'emulator.json');
    await writeFile(file, JSON.stringify(emptyData()));
    await writeFile(journalFileOf(file), `${record('kept', 7)}\n${record('also', 9)}\n{"key":"team/torn","sco`);
    const emulator = await startEmulator({ dataFile: file });
    try {
      expect(Object.keys(emulator.data().scopes)).toEqual(['team/kept', 'team/also']);
      expect(emulator.data().nextId).toBe(9);
      expect(await readdir(dir)).toEqual(['emulator.json', 'emulator.json.lock']); // held while it runs (lock.ts)
    } finally {
      await emulator.close();
    }
  });

  it('refuses a journal with an unreadable line before its end, naming file and line', async () => {
    const file = join(dir, 'emulator.json');
    await writeFile(file, JSON.stringify(emptyData()));
    await writeFile(journalFileOf(file), `${record('kept', 7)}\nnot json\n${record('also', 9)}\n`);
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(`emulator journal ${journalFileOf(file)}:2 is corrupt; fix or delete it`);
  });
});
