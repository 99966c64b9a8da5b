/**
 * Pruning meets behind checkouts: a plan that prunes walks HEAD's whole history anyway, so the
 * ancestry of the run's markers is answered from that walk, not from another `git rev-list HEAD`
 * (src/git/ancestry.ts). The verdict is the same either way: the same run without pruning asks git
 * and must say the same. A `git` on PATH logs every call, so the test sees which way was taken.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ancestryOfMarkers } from '../../src/history/behind.js';
import { MARKER_KEYS, type Marker } from '../../src/plan/ownership.js';
import type { ScopeKey } from '../../src/scope.js';
import { reposClosedAfterEach, teamPolicy } from '../meetings/support.js';
import { loggedGitOnPath } from '../support/logged-git.js';

const DAY = '2026-03-01';
const FOREIGN = 'f'.repeat(40);
const openRepo = reposClosedAfterEach();
describe('the ancestry of markers, from the pruning walk', () => {
  it('a plan that walks history (pruning, or counting what pruning would clear) names the behind scope as a plan that walks none, and asks git no second walk', async () => {
    const r = await openRepo({ 'a.autojoin.yaml': teamPolicy('a', ['acme.com']), 'b.autojoin.yaml': teamPolicy('b', ['beta.com']) });
    expect((await r.run(DAY, 'apply', '--yes', '.')).code).toBe(0);
    const base = r.commit('applied');
    // team/a's marker now names a commit this history does not hold: a checkout behind the last apply.
    const live = r.emulator.data().scopes['team/a']?.autojoin?.invitation.metadata as Record<string, unknown>;
    await r.admin('a', ['acme.com'], { ...live, [MARKER_KEYS.commit]: FOREIGN });
    await r.write('a.autojoin.yaml', teamPolicy('a', ['acme.com', 'acme.dev']));
    await r.write('b.autojoin.yaml', teamPolicy('b', ['beta.com', 'beta.dev']));
    r.commit();
    const calls = loggedGitOnPath();
    /** A plan run, and the calls it made that list history (`rev-list`, `log`), without their `-c` settings. */
    const plan = async (...args: string[]): Promise<{ code: number | null; stderr: string; listed: string[] }> => {
      const before = calls().length;
      const result = await r.run(DAY, 'plan', ...args, '.');
      return { ...result, listed: calls().slice(before).map((call) => call.replace(/^(-c \S+ )+/u, '')).filter((call) => /^(rev-list|log) /u.test(call)) };
    };
    const pruning = await plan();
    const counting = await plan('--no-prune');
    // --changed-since reads only the changed files and never walks history: git is asked for the markers.
    const walkingNone = await plan('--changed-since', base);

    const cautions = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('warning: apply would refuse this plan'));
    expect(cautions(pruning.stderr)).toHaveLength(1);
    expect(cautions(pruning.stderr)[0]).toContain('team/a (commit ffffffffffff)');
    expect(cautions(pruning.stderr)[0]).not.toContain('team/b');
    for (const other of [counting, walkingNone]) {
      expect(cautions(other.stderr)).toEqual(cautions(pruning.stderr));
      expect(other.code).toBe(pruning.code);
    }
    const WALK = expect.stringMatching(/^log --reverse --topo-order --full-history /u);
    expect(pruning.listed).toEqual([WALK]);
    expect(counting.listed).toEqual([WALK]);
    expect(walkingNone.listed).toEqual(['rev-list HEAD']);
  });

  it('answers from a walk of this HEAD only: another HEAD’s walk is not used', async () => {
    const r = await openRepo({ 'a.autojoin.yaml': teamPolicy('a', ['acme.com']) });
    const head = r.commit('second');
    const markers = new Map<ScopeKey, Marker>([['team/a', { owner: 'default', commit: head, digest: 'd'.repeat(64) }]]);
    // A walk that holds nothing: used, it calls HEAD itself not an ancestor, and git is never run.
    const gone = path.join(r.dir, 'not-a-directory');
    const empty = { head, has: () => false };
    expect(await ancestryOfMarkers(markers, 'eng', { base: gone, head, walked: empty })).toEqual({ notAncestors: new Set([head]), shallow: false });
    // A walk of another HEAD: git is asked, and answers HEAD is its own.
    expect(await ancestryOfMarkers(markers, 'eng', { base: r.dir, head, walked: { ...empty, head: FOREIGN } })).toEqual({ notAncestors: new Set(), shallow: false });
    await expect(ancestryOfMarkers(markers, 'eng', { base: gone, head, walked: { ...empty, head: FOREIGN } })).rejects.toThrow();
  });
});
