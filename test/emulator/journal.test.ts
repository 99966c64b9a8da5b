/**
 * The emulator's journal: a write appends to `<data file>.journal` and leaves the data file
 * alone until the journal is compacted (on start and stop); a restart replays it, skipping only
 * a torn last line.
 */
import { mkdir, readdir, readFile, rmdir, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyData, startEmulator } from '../../src/emulator/index.js';
import { createJournal, journalFileOf, replayJournal } from '../../src/emulator/journal.js';
import { defined } from '../support/defined.js';
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

describe('a write the journal cannot record', () => {
  const AUTOJOIN = '/api/v1/invitations/by-scope/team/one/autojoin';
  const domainsOf = (answer: { body: unknown }): string[] => (answer.body as { autojoinDomains: { domain: string }[] }).autojoinDomains.map((d) => d.domain);

  it('is answered 500 and not made: a GET shows the old state, and so does a restart from the journal', async () => {
    const file = join(dir, 'emulator.json');
    const seeding = await startPeer({ dataFile: file });
    expect((await seeding.sync({ domains: ['a.example.com'], scope: 'one' })).status).toBe(200);
    await seeding.emulator.close();

    const peer = await startPeer({ dataFile: file });
    const before = peer.emulator.data();
    // A directory where the journal is opened on the first write: every append fails (EISDIR).
    await mkdir(journalFileOf(file));
    try {
      const writes = await Promise.all([
        peer.sync({ domains: ['b.example.com'], scope: 'one' }),
        peer.sync({ domains: ['c.example.com'], scope: 'two' }),
        fetch(`${peer.emulator.url}/api/v1/invitations/by-scope/team/one`, { method: 'DELETE', headers: { 'x-api-key': peer.emulator.apiKey } }),
      ]);
      expect(writes.map((answer) => answer.status)).toEqual([500, 500, 500]);
      expect(domainsOf(await peer.get(AUTOJOIN))).toEqual(['a.example.com']);
      expect((await peer.get('/api/v1/invitations/by-scope/team/two/autojoin')).body).toEqual({ autojoinDomains: [], invitation: null });
      expect(peer.emulator.data()).toEqual(before);
      expect(JSON.stringify(writes[0].body)).toContain('Could not save the emulator state, so this change was not made');
    } finally {
      await peer.emulator.close();
    }

    await rmdir(journalFileOf(file));
    const restarted = await startPeer({ dataFile: file });
    try {
      expect(restarted.emulator.data()).toEqual(before);
      expect(domainsOf(await restarted.get(AUTOJOIN))).toEqual(['a.example.com']);
    } finally {
      await restarted.emulator.close();
    }
  });

  it('once the journal can be written again, the next write is made and journaled, with the ids a restart keeps', async () => {
    const file = join(dir, 'emulator.json');
    const peer = await startPeer({ dataFile: file });
    await mkdir(journalFileOf(file));
    let after: ReturnType<typeof peer.emulator.data>;
    try {
      expect((await peer.sync({ domains: ['a.example.com'], scope: 'one' })).status).toBe(500);
      await rmdir(journalFileOf(file));
      expect((await peer.sync({ domains: ['b.example.com'], scope: 'one' })).status).toBe(200);
      expect(domainsOf(await peer.get(AUTOJOIN))).toEqual(['b.example.com']);
      after = peer.emulator.data();
      // No trace of the write answered 500: no id was handed out for its domain.
      expect(Object.keys(defined(after.scopes['team/one']).knownDomainIds ?? {})).toEqual(['b.example.com']);
      expect(after.nextId).toBe(await nextIdAfterOneSync());
      expect(await loadDataFile(file).then(async (data) => (await replayed(file, data)).scopes)).toEqual(after.scopes);
    } finally {
      await peer.emulator.close();
    }
    const restarted = await startEmulator({ dataFile: file });
    try {
      expect(restarted.data()).toEqual(after);
    } finally {
      await restarted.close();
    }
  });
});

/** `data` with the journal of `file` applied, as a restart would load it. */
async function replayed(file: string, data: Awaited<ReturnType<typeof loadDataFile>>) {
  const loaded = structuredClone(defined(data));
  await replayJournal(file, loaded);
  return loaded;
}

/** The id counter of an emulator that has made one sync of one new domain. */
async function nextIdAfterOneSync(): Promise<number> {
  const peer = await startPeer();
  try {
    await peer.sync({ domains: ['b.example.com'], scope: 'one' });
    return peer.emulator.data().nextId;
  } finally {
    await peer.emulator.close();
  }
}

describe('createJournal', () => {
  it('fails the write waiting behind a failed one, unwritten (its records were made on top), and writes the next', async () => {
    const written: string[] = [];
    let failFirst: (error: Error) => void = () => undefined;
    let firstStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (firstStarted = resolve));
    const handle = {
      stat: () => Promise.resolve({ size: 0 }),
      appendFile: (bytes: Buffer) => {
        if (written.length > 0) return Promise.resolve(void written.push(bytes.toString('utf8')));
        written.push('(failing)');
        firstStarted();
        return new Promise<void>((_, reject) => (failFirst = reject));
      },
      sync: () => Promise.resolve(),
      truncate: () => Promise.resolve(),
      close: () => Promise.resolve(),
    } as unknown as FileHandle;
    const journal = createJournal(join(dir, 'emulator.json'), () => Promise.resolve(handle));
    const first = journal.append([{ key: 'team/a', scope: null, nextId: 1 }]);
    await started;
    const behind = journal.append([{ key: 'team/b', scope: null, nextId: 2 }]);
    failFirst(new Error('disk full'));
    await expect(first).rejects.toThrow('disk full');
    await expect(behind).rejects.toThrow('disk full');
    await journal.append([{ key: 'team/c', scope: null, nextId: 3 }]);
    expect(written).toEqual(['(failing)', `${JSON.stringify({ key: 'team/c', scope: null, nextId: 3 })}\n`]);
  });
});
