/**
 * The verdict over the whole, whatever the parts (design.md, "One verdict"; issue 46), as
 * properties over random estates (fixed seed), in-process over a real git repository and the
 * emulator over loopback: scopes applied once, then changed outside (a domain shared across scopes,
 * a `metadata` field the answer leaves out) and in the files (`drift: keep`, `maxScopesPerDomain`):
 *  - the plan merged from N shard parts (N from 1 to 5) has the verdict of the unsharded plan;
 *  - a `--changed-since` plan has the full plan's verdict on the rules it counts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/commands/apply-command.js';
import { concludePlan, planCommand } from '../../src/commands/plan-command.js';
import { mergePlansCommand } from '../../src/commands/merge-plans-command.js';
import { refusalsOfError, type VerdictRefusal } from '../../src/commands/verdict.js';
import { emptyData, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { serializePlan } from '../../src/plan/index.js';
import { settingsIn, type RunSettings } from '../../src/run/settings.js';
import { createClient, type ServiceClient } from '../../src/service/client.js';
import type { Diagnostic } from '../../src/policy/types.js';
import { commitAll, commitChanges } from '../support/git.js';
import '../support/fast-check-seed.js';
import { runs } from '../support/long.js';

const KEY = 'sk-merged-verdict-7a21';
const DAY = '2026-03-01';

interface Estate {
  scopes: { shared: boolean; hidden: boolean; edited: boolean }[];
  counting: boolean;
  shards: number;
}

const estates: fc.Arbitrary<Estate> = fc.record({
  // A hidden metadata field one scope in six: the unknown-owner refusal comes first, so most estates reach the counting rule.
  scopes: fc.array(fc.record({ shared: fc.boolean(), hidden: fc.integer({ min: 0, max: 5 }).map((draw) => draw === 0), edited: fc.boolean() }), { minLength: 2, maxLength: 5 }),
  counting: fc.boolean(),
  shards: fc.integer({ min: 1, max: 5 }),
});

/** What a verdict says, without the errors it is thrown as. */
const data = (refusals: readonly VerdictRefusal[]): unknown[] => refusals.map(({ error: _error, ...rest }) => rest);

const file = (index: number, domains: string[]): string => `scope: s${index}\nscopeType: team\ncomponentId: c1\ndomains: [${domains.join(', ')}]\n`;

/** A run's verdict, or the refusals a plan stopped with (unknown ownership, which plan refuses as it reads). */
async function judged(run: () => Promise<readonly VerdictRefusal[]>): Promise<readonly VerdictRefusal[]> {
  try {
    return await run();
  } catch (error) {
    const refusals = refusalsOfError(error);
    if (refusals === null) throw error;
    return refusals;
  }
}

/** Sets the estate up: applied once, changed outside, the files edited since `base`. */
async function estateIn(dir: string, estate: Estate): Promise<{ emulator: Emulator; base: string; context: RunSettings; client: ServiceClient; project: RunSettings['project'] }> {
  const project = { drift: 'keep' as const, ...(estate.counting ? { rules: [{ name: 'one scope a domain', maxScopesPerDomain: 1 }] } : {}) };
  await writeFile(path.join(dir, 'autojoin-sync.yaml'), `drift: keep\n${estate.counting ? 'rules:\n  - name: one scope a domain\n    maxScopesPerDomain: 1\n' : ''}`);
  for (const index of estate.scopes.keys()) await writeFile(path.join(dir, `s${index}.autojoin.yaml`), file(index, [`s${index}.example`]));
  let head = commitAll(dir);
  const first = await startEmulator({ port: 0, data: emptyData(), apiKey: KEY });
  // The context as a run resolves it: HEAD (the markers' commit, whose state drift reads back) with the rest.
  const settings = (): RunSettings => ({ ...settingsIn(dir, { env: { AUTOJOIN_NOW: DAY }, project }), head });
  let data;
  try {
    const client = createClient({ baseUrl: first.url, apiKey: KEY, retry: { maxRetries: 0 } });
    const { plan } = await planCommand({ context: settings(), client });
    if (!plan) throw new Error('no plan');
    await applyCommand({ context: settings(), client, plan, saved: false, takeOwnership: new Set(), allowBehind: [] });
    // Outside: an admin adds a domain several scopes share.
    for (const [index, scope] of estate.scopes.entries()) {
      if (!scope.shared) continue;
      const response = await fetch(`${first.url}/api/v1/invitations/autojoin`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ scope: `s${index}`, scopeType: 'team', componentId: 'c1', domains: [`s${index}.example`, 'shared.example'] }),
      });
      expect(response.status).toBe(200);
    }
    data = first.data();
  } finally {
    await first.close();
  }
  // A deployment whose answers for some scopes carry no metadata field.
  for (const [index, scope] of estate.scopes.entries()) if (scope.hidden) delete (data.scopes[`team/s${index}`]?.autojoin?.invitation as { metadata?: unknown } | undefined)?.metadata;
  const emulator = await startEmulator({ port: 0, data, apiKey: KEY });
  const base = head;
  for (const [index, scope] of estate.scopes.entries()) if (scope.edited) await writeFile(path.join(dir, `s${index}.autojoin.yaml`), file(index, [`s${index}.example`, `new${index}.example`]));
  head = commitChanges(dir, 'edits');
  return { emulator, base, context: settings(), client: createClient({ baseUrl: emulator.url, apiKey: KEY, retry: { maxRetries: 0 } }), project };
}

describe('the verdict over the whole, whatever the parts', () => {
  it('for random estates, the plan merged from N shard parts (N from 1 to 5) has the verdict of the unsharded plan', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(estates, async (estate) => {
        const dir = await mkdtemp(path.join(tmpdir(), 'merged-verdict-'));
        const set = await estateIn(dir, estate).catch(async (error: unknown) => {
          await rm(dir, { recursive: true, force: true });
          throw error;
        });
        try {
          const { context, client } = set;
          const whole = await judged(async () => {
            const { plan } = await planCommand({ context, client });
            if (!plan) throw new Error('no plan');
            return (await concludePlan(plan, context)).verdict.refusals;
          });
          const parts: string[] = [];
          const merged = await judged(async () => {
            for (let shard = 1; shard <= estate.shards; shard += 1) {
              const { plan } = await planCommand({ context, client, shard: `${shard}/${estate.shards}` });
              if (!plan) throw new Error('no plan');
              parts.push(path.join(dir, `part-${shard}.json`));
              await writeFile(parts.at(-1) as string, serializePlan(plan));
            }
            return (await mergePlansCommand({ parts: parts.map((part) => ({ file: part, name: path.basename(part) })) })).verdict.refusals;
          });
          for (const refusal of whole) seen.add(refusal.check);
          // A part that sees both kinds of answer stops as the unsharded plan does, naming only its own scopes.
          if (parts.length < estate.shards) expect(merged.map((refusal) => refusal.check)).toEqual(whole.map((refusal) => refusal.check));
          else expect(data(merged)).toEqual(data(whole));
        } finally {
          await set.emulator.close();
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: runs(4, 8) },
    );
    // The estates reach the cross-scope refusals.
    expect([...seen].sort()).toEqual(expect.arrayContaining(['rule-max-scopes', 'unknown-owner']));
  }, 600_000);

  it('for random estates, a --changed-since plan has the full plan\'s verdict on the rules it counts', async () => {
    let counted = 0;
    const ofCounting = (refusals: readonly VerdictRefusal[]): unknown[] => data(refusals.filter((refusal) => refusal.check === 'rule-max-scopes'));
    const countFindings = (diagnostics: readonly Diagnostic[]): string[] => [...new Set(diagnostics.filter((diagnostic) => diagnostic.code === 'rule-max-scopes').map((diagnostic) => `${diagnostic.file}:${diagnostic.line} ${diagnostic.message}`))].sort();
    await fc.assert(
      fc.asyncProperty(estates, async (estate) => {
        const dir = await mkdtemp(path.join(tmpdir(), 'changed-verdict-'));
        const set = await estateIn(dir, { ...estate, counting: true, scopes: estate.scopes.map((scope) => ({ ...scope, hidden: false })) }).catch(async (error: unknown) => {
          await rm(dir, { recursive: true, force: true });
          throw error;
        });
        try {
          const { context, client, base } = set;
          const answer = async (changedSince?: string): Promise<{ refusals: unknown[]; findings: string[] }> => {
            const { plan, load } = await planCommand({ context, client, ...(changedSince === undefined ? {} : { changedSince }) });
            return { refusals: plan ? ofCounting((await concludePlan(plan, context)).verdict.refusals) : [], findings: countFindings(load.diagnostics) };
          };
          const full = await answer();
          const changed = await answer(base);
          expect(changed).toEqual(full);
          if (full.refusals.length > 0) counted += 1;
        } finally {
          await set.emulator.close();
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: runs(2, 6, 3) },
    );
    expect(counted).toBeGreaterThan(0);
  }, 600_000);
});
