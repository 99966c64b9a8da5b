/**
 * Issue 38: the state last applied of a scope whose files changed since its marker is asked of
 * git as soon as the scope is compared, while the other scopes are still being read live, not as
 * a serial tail after the last read; and not at all when the live state is that last write. A
 * real git repository, applied (every scope marked with its commit), then two of three files
 * edited (and changed outside too); the read of the third scope is held until git was asked for
 * a file at the marker's commit: on the old code, which asked only after every read, the plan
 * never finishes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Blobs from '../../src/git/blobs.js';
import { applyPlan, makePlan } from '../../src/reconcile/index.js';
import { settingsIn } from '../../src/run/settings.js';
import type { ServiceClient } from '../../src/service/index.js';
import type { ScopeRef } from '../../src/scope.js';
import { commitAll, git } from '../support/git.js';
import { startPeer, type Peer } from '../service/support/peer.js';

/** Names asked of git's blob reader, in order, and a promise per name prefix that settles when one is asked. */
const asked = vi.hoisted(() => ({ names: [] as string[], waiters: [] as { prefix: string; resolve: () => void }[] }));

vi.mock('../../src/git/blobs.js', async (importOriginal) => {
  const original = await importOriginal<typeof Blobs>();
  const streamBlobs: typeof original.streamBlobs = (options) => {
    const stream = original.streamBlobs(options);
    return {
      read(name, onRead) {
        asked.names.push(name);
        for (const waiter of asked.waiters.filter((w) => name.startsWith(w.prefix))) waiter.resolve();
        stream.read(name, onRead);
      },
      close: () => stream.close(),
    };
  };
  return { ...original, streamBlobs };
});

/** Settles once git's blob reader is asked for a name starting with `prefix`. */
const askedFor = (prefix: string): Promise<void> =>
  asked.names.some((name) => name.startsWith(prefix)) ? Promise.resolve() : new Promise((resolve) => asked.waiters.push({ prefix, resolve }));

let peer: Peer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await peer?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  peer = dir = undefined;
  asked.names.length = 0;
  asked.waiters.length = 0;
});

const policy = (scope: string, domains: string[]): string => `scope: ${scope}\nscopeType: team\ncomponentId: c\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

/** The client, with call 2b of `scope` held until `gate` settles. */
function holding(client: ServiceClient, scope: string, gate: () => Promise<void>): ServiceClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'getAutojoin') return Reflect.get(target, property, receiver) as unknown;
      return async (ref: ScopeRef) => {
        if (ref.scope === scope) await gate();
        return target.getAutojoin(ref);
      };
    },
  });
}

/**
 * Three scopes applied from a repository (each marked with the commit), then `aa` and `bb`
 * edited in the files and committed; `outside` of them also edited by an admin (a POST without
 * the marker, which stays).
 * @returns the commit of the apply, the repository and the service
 */
async function appliedThenChanged(outside: readonly string[]): Promise<{ head: string; repo: string; service: Peer }> {
  const repo = (dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-overlap-')));
  const service = (peer = await startPeer());
  for (const scope of ['aa', 'bb', 'cc']) await writeFile(path.join(dir, `${scope}.autojoin.yaml`), policy(scope, [`${scope}.example`]));
  const head = commitAll(dir);
  const first = await makePlan({ settings: settingsIn(dir), client: peer.client });
  if (!first.plan) throw new Error('no plan');
  const report = await applyPlan({ client: peer.client, plan: first.plan, settings: settingsIn(dir), commit: head });
  expect(report.failed).toEqual([]);
  for (const scope of ['aa', 'bb']) await writeFile(path.join(dir, `${scope}.autojoin.yaml`), policy(scope, [`${scope}.example`, `new.${scope}.example`]));
  git(dir, 'commit', '-q', '-am', 'two scopes change');
  for (const scope of outside) {
    const response = await fetch(`${peer.emulator.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': peer.emulator.apiKey },
      body: JSON.stringify({ domains: [`${scope}.example`, `partner.${scope}.example`], scope, scopeType: 'team', componentId: 'c' }),
    });
    expect(response.status).toBe(200);
  }
  asked.names.length = 0;
  return { head, repo, service };
}

const policyFilesAsked = (): string[] => asked.names.filter((name) => name.endsWith('.autojoin.yaml')).sort();

describe('the state last applied is read from git while live reads go on (issue 38)', () => {
  it('asks git for a changed scope\'s file at its marker\'s commit before the last live read has answered', { timeout: 10_000 }, async () => {
    const { head, repo, service } = await appliedThenChanged(['aa', 'bb']);
    const client = holding(service.client, 'cc', () => askedFor(`${head}:./`));
    const { plan } = await makePlan({ settings: settingsIn(repo), client });
    expect(plan?.changes.map((change) => [change.key, change.origin, change.after])).toEqual([
      ['team/aa', 'conflict', ['aa.example', 'new.aa.example']],
      ['team/bb', 'conflict', ['bb.example', 'new.bb.example']],
    ]);
    // Each file once, on the one stream of that commit.
    expect(policyFilesAsked()).toEqual([`${head}:./aa.autojoin.yaml`, `${head}:./bb.autojoin.yaml`]);
  });

  it('reads nothing from git for a changed scope whose live state is its last write (nothing changed outside)', async () => {
    const { head, repo, service } = await appliedThenChanged(['bb']);
    const { plan } = await makePlan({ settings: settingsIn(repo), client: service.client });
    expect(plan?.changes.map((change) => [change.key, change.origin, change.after])).toEqual([
      ['team/aa', undefined, ['aa.example', 'new.aa.example']],
      ['team/bb', 'conflict', ['bb.example', 'new.bb.example']],
    ]);
    expect(policyFilesAsked()).toEqual([`${head}:./bb.autojoin.yaml`]);
  });
});
