/**
 * A saved plan edited after review (issue 12): each edit below is one an attacker who can touch
 * the artifact between the plan job and the apply job could make. Every one is refused by the
 * spawned CLI against the emulator, with the exit code named in the README, and nothing is written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import type { ChangeDocument as Change, PlanDocument as Plan } from '../../src/plan/encode.js';
import { assertBuilt, cli, liveDomains, policy, posts, setLive, startTestEmulator, tempProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
let reviewed: string;
let digest: string;

beforeAll(async () => {
  assertBuilt();
  emulator = await startTestEmulator();
  await setLive(emulator, 'a', ['keep.example', 'old.example']);
  await setLive(emulator, 'b', ['b.example']);
  project = await tempProject({
    'a.autojoin.yaml': policy('a', ['keep.example', 'new.example']),
    'b.autojoin.yaml': policy('b', ['b.example']),
    'c.autojoin.yaml': policy('c', ['c.example']),
    'd.autojoin.yaml': policy('d', []),
  });
  const saved = await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator });
  expect(saved.code).toBe(0);
  digest = /sha256 ([0-9a-f]{64})/u.exec(saved.stderr)?.[1] ?? '';
  expect(digest).toMatch(/^[0-9a-f]{64}$/u);
  reviewed = await readFile(join(project.dir, 'plan.json'), 'utf8');
});
afterAll(async () => {
  // Unset when beforeAll failed part-way, whatever their declared types say.
  /* eslint-disable @typescript-eslint/no-unnecessary-condition */
  await emulator?.close();
  await project?.cleanup();
  /* eslint-enable @typescript-eslint/no-unnecessary-condition */
});
beforeEach(async () => {
  await writeFile(join(project.dir, 'plan.json'), reviewed);
  emulator.requests.length = 0;
});

/** Edits the reviewed plan, applies it, and checks the refusal wrote nothing. */
async function applyEdited(edit: (plan: Plan) => void, extra: string[] = []): Promise<{ code: number | null; stderr: string }> {
  const plan = JSON.parse(reviewed) as Plan;
  edit(plan);
  await writeFile(join(project.dir, 'plan.json'), JSON.stringify(plan, null, 2));
  const before = emulator.data();
  const result = await cli(['apply', '--plan', 'plan.json', '--yes', ...extra], { cwd: project.dir, emulator });
  expect(posts(emulator)).toBe(0);
  expect(emulator.data()).toEqual(before);
  return result;
}

function change(plan: Plan, key: string): Change {
  const found = plan.changes.find((c) => c.key === key);
  if (!found) throw new Error(`no change of ${key}`);
  return found;
}

/** Adds `domain` to a change's after and added, keeping every count consistent. */
function widen(plan: Plan, key: string, domain: string): void {
  const target = change(plan, key);
  target.after = [...target.after, domain].sort();
  target.added = [...target.added, domain].sort();
  plan.summary.domainsAdded += 1;
}

describe('a tampered saved plan', () => {
  it('plans what the edits start from: update team/a, create team/c, team/d without autojoin', () => {
    const plan = JSON.parse(reviewed) as Plan;
    expect(plan.changes.map((c) => `${c.kind} ${c.key}`)).toEqual(['update team/a', 'create team/c']);
    expect(plan.scopes.find((s) => s.key === 'team/d')?.fingerprint).toBe('no autojoin');
  });

  it('1. a domain added to after alone (the rendered diff would hide it): exit 1', async () => {
    const result = await applyEdited((plan) => change(plan, 'team/a').after.push('zz-evil.example'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/changes/0 (team/a): added does not match before/after');
  });

  it('2. a domain added to after and added, summary left as reviewed: exit 1', async () => {
    const result = await applyEdited((plan) => {
      widen(plan, 'team/a', 'zz-evil.example');
      plan.summary.domainsAdded -= 1;
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/summary/domainsAdded is 2, but the changes count 3');
  });

  it('3. a reviewed key whose scope names another scope: exit 1', async () => {
    const result = await applyEdited((plan) => {
      change(plan, 'team/c').scope = 'other';
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('key does not match scopeType/scope (team/other)');
  });

  it('4. the same scope twice, in changes or in scopes: exit 1', async () => {
    const twice = await applyEdited((plan) => plan.changes.push({ ...change(plan, 'team/c') }));
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('(team/c): a second change of the same scope');
    const scopes = await applyEdited((plan) => plan.scopes.push({ key: 'team/b', fingerprint: 'no autojoin' }));
    expect(scopes.code).toBe(1);
    expect(scopes.stderr).toContain('team/b appears twice');
  });

  it('5. an update rewritten to drop every reviewed domain: its lists give it away (exit 1)', async () => {
    const result = await applyEdited((plan) => {
      change(plan, 'team/a').after = ['new.example'];
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('removed does not match before/after');
  });

  it('6. the same rewrite made consistent: the safety limit counts it from before/after (exit 3)', async () => {
    const result = await applyEdited((plan) => {
      const a = change(plan, 'team/a');
      Object.assign(a, { kind: 'clear', after: [], added: [], removed: a.before, unchanged: 0, explicitEmpty: true });
      plan.changes.sort((x, y) => (x.kind === 'clear' ? -1 : y.kind === 'clear' ? 1 : 0));
      Object.assign(plan.summary, { update: 0, clear: 1, domainsAdded: 1, domainsRemoved: 2 });
    }, ['--max-removals', '1']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('plan removes 2 domains');
  });

  it('7. a webmail domain slipped into after (lists and summary consistent): exit 1', async () => {
    const result = await applyEdited((plan) => widen(plan, 'team/c', 'gmail.com'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('gmail.com is a webmail domain');
  });

  it('8. a look-alike of a webmail domain slipped into after: exit 1', async () => {
    const result = await applyEdited((plan) => widen(plan, 'team/c', 'xn--gmil-63d.com'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/xn--gmil-63d\.com.*(mixes scripts|looks like)/u);
  });

  it('9. a create where the scope already has autojoin: the fingerprint gives it away (exit 1)', async () => {
    const result = await applyEdited((plan) => {
      const a = change(plan, 'team/a');
      Object.assign(a, { kind: 'create', before: [], added: a.after, removed: [], unchanged: 0 });
      Object.assign(plan.summary, { create: 2, update: 0, domainsAdded: 3, domainsRemoved: 0 });
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('kind is create, but before/after and the fingerprint make it update');
  });

  it('10. before rewritten to hide a removal (all else consistent): checked against live (exit 1)', async () => {
    const result = await applyEdited((plan) => {
      const a = change(plan, 'team/a');
      Object.assign(a, { before: ['keep.example'], removed: [], unchanged: 1 });
      plan.summary.domainsRemoved = 0;
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('team/a: before is not the live domain list its fingerprint vouches for');
  });

  it('11. a control character in scopeName (an ESC sequence for the terminal): exit 1', async () => {
    const result = await applyEdited((plan) => {
      change(plan, 'team/c').scopeName = 'Team C\u001b[2J';
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('scopeName: must not contain control characters or bidirectional overrides (found U+001B)');
    expect(result.stderr).not.toContain('\u001b');
  });

  it('12. any edit at all under --plan-sha256: exit 1 naming both digests', async () => {
    const result = await applyEdited((plan) => {
      plan.createdAt = '2020-01-01T00:00:00.000Z';
    }, ['--plan-sha256', digest]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`not the pinned ${digest}`);
  });

  it('13. a fingerprint that no longer names "no autojoin" (an old-style hash of nothing): stale (exit 4)', async () => {
    const result = await applyEdited((plan) => {
      const d = plan.scopes.find((s) => s.key === 'team/d');
      if (d) d.fingerprint = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('team/d');
  });

  it('14. another owner written into the plan (its writes would mark the scopes as that owner\'s): exit 1', async () => {
    const result = await applyEdited((plan) => {
      plan.owner = 'someone-else';
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the saved plan marks scopes with owner "someone-else", but this repository\'s owner is "default"');
  });

  it('15. a marker key smuggled into the live keys a write keeps: exit 1', async () => {
    const result = await applyEdited((plan) => {
      change(plan, 'team/a').keptMetadata = { 'autojoin-sync.owner': 'someone-else' };
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/changes/0/keptMetadata');
  });

  it('16. an owner change that the live marker does not make: checked against live (exit 1)', async () => {
    const result = await applyEdited((plan) => {
      change(plan, 'team/a').fieldChanges = [{ field: 'owner', before: null, after: 'default' }];
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('team/a: fieldChanges shows owner before as null, live is "default"');
  });

  it('a scope that had no autojoin and has one now makes the plan stale (exit 4)', async () => {
    await setLive(emulator, 'd', ['d.example']);
    emulator.requests.length = 0;
    try {
      const result = await applyEdited(() => undefined);
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('stale');
      expect(result.stderr).toContain('team/d');
    } finally {
      await setLive(emulator, 'd', []);
    }
  });

  it('the reviewed plan, pinned by its digest, applies', async () => {
    try {
      const result = await cli(['apply', '--plan', 'plan.json', '--yes', '--plan-sha256', digest.toUpperCase()], { cwd: project.dir, emulator });
      expect(result.code).toBe(0);
      expect(liveDomains(emulator.data(), 'a')).toEqual(['keep.example', 'new.example']);
      expect(liveDomains(emulator.data(), 'c')).toEqual(['c.example']);
    } finally {
      // Back to the live state the plan was made against, for the tests that run after this one.
      await setLive(emulator, 'a', ['keep.example', 'old.example']);
      await setLive(emulator, 'c', []);
    }
  });
});
