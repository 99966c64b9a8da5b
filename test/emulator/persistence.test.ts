import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateData, startEmulator, type EmulatorData } from '../../src/emulator/index.js';
import { LIST, startPeer, tempDir } from './helpers.js';
import { loadDataFile } from '../../src/emulator/store.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

/** The state on disk as a restart would see it: the data file with its journal applied. */
const readState = async (file: string) => (await loadDataFile(file)) as EmulatorData;

describe('data file', () => {
  it('starts from options.data when the file is missing, and writes it at once', async () => {
    const file = join(dir, 'state', 'emulator.json');
    const peer = await startPeer({ dataFile: file, data: generateData({ scopes: 2, invitationsPerScope: 1, domainsPerScope: 1, seed: 1 }) });
    await peer.emulator.close();
    expect(Object.keys((await readState(file)).scopes)).toEqual(['team/scope-0001', 'team/scope-0002']);
  });

  it('keeps state across a restart, and ids stay unique', async () => {
    const file = join(dir, 'emulator.json');
    const first = await startPeer({ dataFile: file });
    const created = (await first.sync({ domains: ['a.com'], scope: 'acme' })).body as { invitation: { id: string } };
    await first.emulator.close();

    const second = await startPeer({ dataFile: file, data: generateData({ scopes: 5, invitationsPerScope: 0, domainsPerScope: 1, seed: 1 }) });
    try {
      const state = await second.get(`${LIST}/team/acme/autojoin`);
      expect(state.body).toMatchObject({ autojoinDomains: [{ domain: 'a.com' }], invitation: { id: created.invitation.id } });
      expect(Object.keys(second.emulator.data().scopes)).toEqual(['team/acme']);
      const other = (await second.sync({ domains: ['b.com'], scope: 'beta' })).body as { invitation: { id: string } };
      expect(other.invitation.id).not.toBe(created.invitation.id);
    } finally {
      await second.emulator.close();
    }
  });

  it('a 200 means the change is on disk; concurrent writes leave one complete file and no temp files', async () => {
    const file = join(dir, 'emulator.json');
    const peer = await startPeer({ dataFile: file });
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => peer.sync({ domains: [`d${i}.example.com`], scope: `s${i}` })),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
      expect(Object.keys((await readState(file)).scopes)).toHaveLength(40);
      const last = await peer.sync({ domains: ['final.example.com'], scope: 's0' });
      expect(last.status).toBe(200);
      expect((await readState(file)).scopes['team/s0']?.autojoin?.domains).toEqual([{ id: expect.any(String), domain: 'final.example.com' }]);
      expect(await readState(file)).toEqual(peer.emulator.data());
    } finally {
      await peer.emulator.close();
    }
    expect(await readdir(dir)).toEqual(['emulator.json']);
  });

  it('a failed request does not write', async () => {
    const file = join(dir, 'emulator.json');
    const peer = await startPeer({ dataFile: file });
    try {
      const before = await readFile(file, 'utf8');
      await peer.sync({ domains: ['gmail.com'], scope: 'acme' });
      await peer.get(`${LIST}/team/acme`);
      expect(await readFile(file, 'utf8')).toBe(before);
    } finally {
      await peer.emulator.close();
    }
  });

  it('refuses a corrupt file with an error naming it', async () => {
    const file = join(dir, 'emulator.json');
    await writeFile(file, '{\n  "formatVersion": 1,\n  "scopes": {,\n}');
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(`emulator data file ${file}:3 is not valid JSON`);
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(/is not valid JSON.*fix or delete it/u);
    await writeFile(file, '{"formatVersion": 2}');
    await expect(startEmulator({ dataFile: file })).rejects.toThrow(`emulator data file ${file} is not an emulator state`);
    expect(await readFile(file, 'utf8')).toBe('{"formatVersion": 2}');
  });
});
