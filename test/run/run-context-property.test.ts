/**
 * One answer from any directory, as a property (issue 31), in-process over real git repositories
 * and the emulator over loopback: for random layouts (the project file at the root, in a
 * subfolder, or two of them) and random working directories (the root, a subfolder, outside the
 * repository: the CLI's -C DIR is a working directory too), the run context is the same, the plan
 * is the same, and a saved plan applied from any of them writes exactly the scopes it showed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePlan } from '../../src/reconcile/index.js';
import { applyCommand } from '../../src/commands/apply-command.js';
import { resolveSettings, type RunSettings } from '../../src/run/settings.js';
import { parsePlan, serializePlan, type Plan } from '../../src/plan/index.js';
import { commitAll } from '../support/git.js';
import { writeFiles } from '../e2e/support.js';
import { startPeer, type Peer } from '../service/support/peer.js';
import { runs } from '../support/long.js';

const LAYOUTS = ['root', 'subfolder', 'two'] as const;
const PLACES = ['root', 'subfolder', 'outside'] as const;
type Place = (typeof PLACES)[number];

let peer: Peer;
beforeAll(async () => {
  peer = await startPeer();
});
afterAll(async () => peer.close());

const policy = (scope: string, domains: string[]): string => `scope: ${scope}\nscopeType: team\ndomains: [${domains.join(', ')}]\n`;
const project = (owner: string): string => `owner: ${owner}\ndefaults:\n  componentId: cmp_${owner}\nsafety:\n  maxRemovals: 50\n`;

/** A repository under `top/repo` in `layout`, and `top/outside`. */
async function layoutIn(top: string, layout: (typeof LAYOUTS)[number], run: number): Promise<void> {
  const files: Record<string, string> = { 'outside/README.md': 'not a repository\n' };
  const scope = (name: string): string => `${name}-${run}`;
  if (layout === 'root') Object.assign(files, { 'repo/autojoin-sync.yaml': project('root'), 'repo/infra/a.autojoin.yaml': policy(scope('a'), ['a.example']) });
  if (layout === 'subfolder') Object.assign(files, { 'repo/infra/autojoin-sync.yaml': project('infra'), 'repo/infra/a.autojoin.yaml': policy(scope('a'), ['a.example']) });
  if (layout === 'two') {
    Object.assign(files, {
      'repo/infra/autojoin-sync.yaml': project('infra'),
      'repo/infra/a.autojoin.yaml': policy(scope('a'), ['a.example']),
      'repo/other/autojoin-sync.yaml': project('other'),
      'repo/other/b.autojoin.yaml': policy(scope('b'), ['b.example']),
    });
  }
  await writeFiles(top, files);
  commitAll(path.join(top, 'repo'));
}

/** The working directory of `place`, and the policy path from there (`.` of the repository, given as it would be typed). */
function from(top: string, place: Place): { cwd: string; paths: string[] } {
  if (place === 'root') return { cwd: path.join(top, 'repo'), paths: ['.'] };
  if (place === 'subfolder') return { cwd: path.join(top, 'repo/infra'), paths: ['..'] };
  return { cwd: path.join(top, 'outside'), paths: ['../repo'] };
}

function resolve(cwd: string, paths: string[], saved?: Plan): Promise<RunSettings> {
  return resolveSettings({ cwd, paths, flags: {}, env: { AUTOJOIN_NOW: '2026-03-01' }, report: () => undefined, ...(saved?.context ? { saved: { context: saved.context, file: 'plan.json' } } : {}) });
}

/** The context and plan from `place`, or the error's message. */
async function planFrom(top: string, place: Place): Promise<{ settings: RunSettings; plan: Plan } | string> {
  const { cwd, paths } = from(top, place);
  try {
    const settings = await resolve(cwd, paths);
    const made = await makePlan({ settings, client: peer.client });
    if (!made.plan) return 'invalid policy files';
    return { settings, plan: made.plan };
  } catch (error) {
    const message = (error as Error).message;
    return message.includes('takes one project at a time') ? 'two project files' : message;
  }
}

const comparable = (plan: Plan): string => serializePlan({ ...plan, createdAt: '' });

describe('one answer from any directory (property)', () => {
  it('the same context and plan from every working directory, and a saved plan applied from any writes only what it showed', async () => {
    const scenario = fc.record({ layout: fc.constantFrom(...LAYOUTS), planFrom: fc.constantFrom(...PLACES), applyFrom: fc.constantFrom(...PLACES) });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ layout, planFrom: planPlace, applyFrom }) => {
        run += 1;
        const top = await mkdtemp(path.join(os.tmpdir(), 'autojoin-context-property-'));
        try {
          await layoutIn(top, layout, run);
          const answers = await Promise.all(PLACES.map((place) => planFrom(top, place)));
          const shown = answers.map((answer) => (typeof answer === 'string' ? answer : comparable(answer.plan)));
          expect(new Set(shown).size).toBe(1);
          const made = answers[PLACES.indexOf(planPlace)];
          if (made === undefined || typeof made === 'string') {
            expect(layout).toBe('two');
            return;
          }
          const saved = parsePlan(serializePlan(made.plan));
          // From outside the repository there is no repository to find the recorded project file in: refused, and -C repo runs from its root.
          if (applyFrom === 'outside') await expect(resolve(from(top, 'outside').cwd, [], saved)).rejects.toThrow(/was made with project file .* but it does not exist here/u);
          const applying = await resolve(applyFrom === 'outside' ? path.join(top, 'repo') : from(top, applyFrom).cwd, [], saved);
          expect({ owner: applying.owner, limits: applying.limits, project: applying.projectRecord }).toEqual({ owner: made.settings.owner, limits: made.settings.limits, project: made.settings.projectRecord });
          const before = peer.emulator.requests.length;
          const report = await applyCommand({ context: applying, client: peer.client, plan: saved, saved: true, takeOwnership: new Set(), allowBehind: [] });
          const written = peer.emulator.requests.slice(before).filter((request) => request.method === 'POST').length;
          expect(report.applied.map((entry) => entry.key).sort()).toEqual(saved.changes.map((change) => change.key).sort());
          expect(written).toBe(saved.changes.length);
        } finally {
          await rm(top, { recursive: true, force: true });
        }
      }),
      { numRuns: runs(3, 6, 6) },
    );
  });
});
