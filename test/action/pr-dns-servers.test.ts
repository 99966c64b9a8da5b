/**
 * In a pull request the repository's project file may not choose the DNS check's resolvers (as it
 * may not choose the base URL): a pull request could name a resolver of its own, whose answers its
 * plan would trust. On push the project file's `dns.servers` is used as before; in a pull request
 * the input `dns-servers` or AUTOJOIN_DNS_SERVERS are.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInputs } from '../../src/action/inputs.js';
import { actionSettings } from '../../src/action/action-settings.js';

let workspace: string;
const saved = process.env.AUTOJOIN_DNS_SERVERS;

beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'pr-dns-'));
  await writeFile(path.join(workspace, 'autojoin-sync.yaml'), 'dns:\n  check: true\n  servers: ["127.0.0.66"]\n');
  await writeFile(path.join(workspace, 'a.autojoin.yaml'), 'scope: a\nscopeType: team\ncomponentId: c\ndomains: [acme.com]\n');
  delete process.env.AUTOJOIN_DNS_SERVERS;
});
afterAll(async () => {
  if (saved !== undefined) process.env.AUTOJOIN_DNS_SERVERS = saved;
  await rm(workspace, { recursive: true, force: true });
});

const inputs = (given: Record<string, string> = {}) => parseInputs((name) => given[name] ?? '');
const settings = (eventName: string, given: Record<string, string> = {}) =>
  actionSettings(inputs(given), { workspace, eventName, pullNumber: eventName === 'push' ? undefined : 3 }, () => undefined);

describe('dns.servers of the project file', () => {
  it('is used on push', async () => {
    const dns = (await settings('push')).dns;
    expect(dns?.servers).toEqual(['127.0.0.66']);
    expect(dns?.serversFrom).toBe('dns.servers in autojoin-sync.yaml');
  });

  it.each(['pull_request', 'pull_request_target'])('is not used in a %s event: the check still runs, with the system resolvers', async (eventName) => {
    const dns = (await settings(eventName)).dns;
    expect(dns).not.toBeNull();
    expect(dns?.servers).toEqual([]);
    expect(dns?.serversFrom).not.toContain('autojoin-sync.yaml');
  });

  it('the input dns-servers is used in a pull request', async () => {
    expect((await settings('pull_request', { 'dns-servers': '127.0.0.53' })).dns?.servers).toEqual(['127.0.0.53']);
  });
});
