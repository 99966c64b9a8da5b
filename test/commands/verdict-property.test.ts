/**
 * plan's cautions are apply's refusals (design.md, "One verdict"), as a property: for random
 * estates (scopes, live domains, the files' domains, a removal limit, drift: keep with an admin's
 * public suffix), in-process over a real git repository and the emulator over loopback, the
 * verdict `plan` shows for its plan is exactly what `apply` of that plan refuses (the same
 * refusals, in the same words), and apply writes when and only when the verdict has none.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/commands/apply-command.js';
import { concludePlan, planCommand } from '../../src/commands/plan-command.js';
import { refusalsOfError, type VerdictRefusal } from '../../src/commands/verdict.js';
import { emptyData, startEmulator } from '../../src/emulator/index.js';
import { settingsIn } from '../../src/run/settings.js';
import { createClient } from '../../src/service/client.js';
import { commitAll } from '../support/git.js';
import '../support/fast-check-seed.js';
import { runs } from '../support/long.js';

const KEY = 'sk-verdict-property-3e91';
const DAY = '2026-03-01';

interface Estate {
  scopes: { live: number; kept: number; added: number; suffix: boolean }[];
  maxRemovals: number;
  keep: boolean;
}

const estates: fc.Arbitrary<Estate> = fc.record({
  scopes: fc.array(fc.record({ live: fc.integer({ min: 0, max: 4 }), kept: fc.integer({ min: 0, max: 4 }), added: fc.integer({ min: 0, max: 2 }), suffix: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  maxRemovals: fc.integer({ min: 0, max: 6 }),
  keep: fc.boolean(),
});

/** The data of a refusal, without the error it is thrown as. */
const data = (refusals: readonly VerdictRefusal[] | null): unknown[] => (refusals ?? []).map(({ error: _error, ...rest }) => rest);

async function judged(estate: Estate): Promise<{ cautions: readonly VerdictRefusal[]; refused: VerdictRefusal[] | null; wrote: boolean }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'verdict-property-'));
  const emulator = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
  try {
    await writeFile(path.join(dir, 'autojoin-sync.yaml'), `${estate.keep ? 'drift: keep\n' : ''}safety:\n  maxRemovals: ${estate.maxRemovals}\n`);
    for (const [index, scope] of estate.scopes.entries()) {
      const live = Array.from({ length: scope.live }, (_, n) => `d${n}.s${index}.example`);
      const wanted = [...live.slice(0, scope.kept), ...Array.from({ length: scope.added }, (_, n) => `new${n}.s${index}.example`)];
      await writeFile(path.join(dir, `s${index}.autojoin.yaml`), `scope: s${index}\nscopeType: team\ncomponentId: c1\ndomains: [${wanted.join(', ')}]\n`);
      // An admin's edit: the live list, with a public suffix added outside when the estate says so.
      const domains = scope.suffix && live.length > 0 ? [...live, 'co.uk'] : live;
      if (domains.length === 0) continue;
      const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ scope: `s${index}`, scopeType: 'team', componentId: 'c1', domains }),
      });
      expect(response.status).toBe(200);
    }
    commitAll(dir);
    const context = settingsIn(dir, { env: { AUTOJOIN_NOW: DAY }, project: { ...(estate.keep ? { drift: 'keep' as const } : {}), safety: { maxRemovals: estate.maxRemovals } } });
    const client = createClient({ baseUrl: emulator.url, apiKey: KEY, retry: { maxRetries: 0 } });
    const { plan } = await planCommand({ context, client });
    if (!plan) throw new Error('no plan');
    const { verdict } = await concludePlan(plan, context);
    const posts = (): number => emulator.requests.filter((request) => request.method === 'POST').length;
    const before = posts();
    let refused: VerdictRefusal[] | null = null;
    try {
      await applyCommand({ context, client, plan, saved: false, takeOwnership: new Set(), allowBehind: [] });
    } catch (error) {
      refused = refusalsOfError(error);
      if (refused === null) throw error;
    }
    return { cautions: verdict.refusals, refused, wrote: posts() > before };
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe('plan\'s cautions are apply\'s refusals', () => {
  it('for random estates, apply of a plan refuses exactly what the plan cautioned, and writes only when nothing is cautioned', async () => {
    let refusedRuns = 0;
    await fc.assert(
      fc.asyncProperty(estates, async (estate) => {
        const { cautions, refused, wrote } = await judged(estate);
        if (cautions.length === 0) {
          expect(refused).toBeNull();
          return;
        }
        refusedRuns += 1;
        // apply stops at the first check that refuses: all of that check's refusals, as plan showed them.
        const first = cautions[0]?.kind;
        expect(data(refused)).toEqual(data(cautions.filter((caution) => caution.kind === first)));
        expect(wrote).toBe(false);
      }),
      { numRuns: runs(6, 12, 12) },
    );
    // The estates reach both sides: some plans are cautioned.
    expect(refusedRuns).toBeGreaterThan(0);
  });
});
