import { describe, expect, it } from 'vitest';
import { generateData, type StartMode } from '../../src/emulator/index.js';
import { LIST, startPeer, type TestPeer } from './helpers.js';

interface Listed {
  id: string;
  invitationType: string;
}

async function page(peer: TestPeer, start: number): Promise<Listed[]> {
  const answer = await peer.get(`${LIST}/team/scope-0001?start=${start}`);
  expect(answer.status).toBe(200);
  return (answer.body as { invitations: Listed[] }).invitations;
}

/** The documented walk: 0, 19, 39, …, de-duplicated by id, until a short page or no new ids. */
async function walk(peer: TestPeer): Promise<{ ids: string[]; starts: number[] }> {
  const seen = new Set<string>();
  const starts: number[] = [];
  for (let start = 0; ; start = start === 0 ? 19 : start + 20) {
    starts.push(start);
    const invitations = await page(peer, start);
    const fresh = invitations.filter((invitation) => !seen.has(invitation.id));
    for (const invitation of fresh) seen.add(invitation.id);
    if (invitations.length < 20 || fresh.length === 0) return { ids: [...seen], starts };
  }
}

/** A scope with `total` listed invitations: total-1 ordinary ones plus the autojoin one. */
function dataWith(total: number) {
  return generateData({ scopes: 1, invitationsPerScope: Math.max(total - 1, 0), domainsPerScope: total > 0 ? 1 : 0, seed: 3 });
}

const range = (from: number, to: number) => Array.from({ length: Math.max(to - from, 0) }, (_, i) => from + i);

describe.each<StartMode>(['offset', 'after'])('pagination, start mode %s', (startMode) => {
  it.each([0, 1, 19, 20, 21, 39, 40, 41])('walks all of %i invitations exactly once', async (total) => {
    const peer = await startPeer({ data: dataWith(total), startMode });
    try {
      const everything = [...(await page(peer, 0)), ...(await page(peer, startMode === 'offset' ? 20 : 19)), ...(await page(peer, startMode === 'offset' ? 40 : 39))];
      expect(everything).toHaveLength(total);
      const { ids } = await walk(peer);
      expect(ids).toEqual(everything.map((invitation) => invitation.id));
      expect(everything.filter((invitation) => invitation.invitationType === 'autojoin')).toHaveLength(total > 0 ? 1 : 0);
    } finally {
      await peer.emulator.close();
    }
  });
});

describe('what start selects', () => {
  it('offset: start is the 0-based index of the first item (19 overlaps page 0 by one)', async () => {
    const peer = await startPeer({ data: dataWith(41), startMode: 'offset' });
    try {
      const all = [...(await page(peer, 0)), ...(await page(peer, 20)), ...(await page(peer, 40))].map((x) => x.id);
      const ids = async (start: number) => (await page(peer, start)).map((x) => x.id);
      expect(await ids(0)).toEqual(range(0, 20).map((i) => all[i]));
      expect(await ids(1)).toEqual(range(1, 21).map((i) => all[i]));
      expect(await ids(19)).toEqual(range(19, 39).map((i) => all[i]));
      expect(await ids(39)).toEqual([all[39], all[40]]);
      expect(await ids(41)).toEqual([]);
      expect((await walk(peer)).starts).toEqual([0, 19, 39]);
    } finally {
      await peer.emulator.close();
    }
  });

  it('after: start=0 is the first page, otherwise the page begins after index start', async () => {
    const offsetPeer = await startPeer({ data: dataWith(41), startMode: 'offset' });
    const all = [...(await page(offsetPeer, 0)), ...(await page(offsetPeer, 20)), ...(await page(offsetPeer, 40))].map((x) => x.id);
    await offsetPeer.emulator.close();
    const peer = await startPeer({ data: dataWith(41), startMode: 'after' });
    try {
      const ids = async (start: number) => (await page(peer, start)).map((x) => x.id);
      expect(await ids(0)).toEqual(range(0, 20).map((i) => all[i]));
      expect(await ids(19)).toEqual(range(20, 40).map((i) => all[i]));
      expect(await ids(39)).toEqual([all[40]]);
      expect(await ids(40)).toEqual([]);
    } finally {
      await peer.emulator.close();
    }
  });

  it('places the autojoin invitation in the middle of many, not first', async () => {
    const peer = await startPeer({ data: dataWith(41) });
    try {
      const second = await page(peer, 20);
      expect(second[0]?.invitationType).toBe('autojoin');
      expect((await page(peer, 0)).some((x) => x.invitationType === 'autojoin')).toBe(false);
    } finally {
      await peer.emulator.close();
    }
  });

  it('walks 1,000 invitations under both readings', async () => {
    for (const startMode of ['offset', 'after'] as const) {
      const peer = await startPeer({ data: dataWith(1000), startMode });
      try {
        const { ids, starts } = await walk(peer);
        expect(new Set(ids).size).toBe(1000);
        expect(starts).toHaveLength(51); // 0, 19, 39, …, 999
      } finally {
        await peer.emulator.close();
      }
    }
  });
});
