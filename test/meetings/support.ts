/**
 * The meetings suites' fixture: a real git repository in a temp directory holding policy files
 * (and a project file), an emulator over loopback, and the CLI run in-process against both with
 * `AUTOJOIN_NOW` fixing the day. Admin edits go through the service's own sync call.
 */
import { afterEach } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { emptyData, startEmulator, type Emulator, type EmulatorData } from '../../src/emulator/index.js';
import type { PostMetadataMode } from '../../src/emulator/types.js';
import { commitAll, commitChanges } from '../support/git.js';
import { runInProcess } from '../support/in-process.js';
import { runCli, type CliResult } from '../support/cli.js';

export const KEY = 'sk-meetings-5c1f0e';

export interface Repo {
  dir: string;
  emulator: Emulator;
  /** Runs the CLI in-process in `dir` on `day`. */
  run(day: string, ...args: string[]): Promise<CliResult>;
  write(file: string, text: string): Promise<void>;
  read(file: string): Promise<string>;
  commit(message?: string): string;
  /** An admin's edit in the widget: the service's sync call, metadata kept unless given. */
  admin(scope: string, domains: string[], metadata?: Record<string, unknown>): Promise<void>;
  /** The live autojoin invitation of team/ID: domains and metadata ({deactivated} when switched off). */
  live(scope: string): Promise<{ domains: string[]; metadata: Record<string, unknown> | null; deactivated: boolean }>;
  close(): Promise<void>;
}

/**
 * @param files path → text, committed as the first commit
 * @param how.spawned run the built CLI as a process (the end-to-end tier) instead of in-process
 * @param how.postMetadata what the emulator does with a POST without metadata (`--post-metadata`)
 * @param how.data the emulator's state to start from (default empty)
 */
export async function repo(files: Record<string, string>, how: { spawned?: boolean; postMetadata?: PostMetadataMode; data?: EmulatorData } = {}): Promise<Repo> {
  const dir = await mkdtemp(path.join(tmpdir(), 'meetings-'));
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  commitAll(dir);
  const emulator = await startEmulator({ port: 0, data: how.data ?? emptyData(), apiKey: KEY, ...(how.postMetadata ? { postMetadata: how.postMetadata } : {}) });
  const env = { AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: KEY };
  const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
  return {
    dir,
    emulator,
    run: (day, ...args) => (how.spawned ? runCli : runInProcess)(args, { cwd: dir, env: { ...env, AUTOJOIN_NOW: day } }),
    write: (file, text) => writeFile(path.join(dir, file), text),
    read: (file) => readFile(path.join(dir, file), 'utf8'),
    commit: (message = 'edit') => commitChanges(dir, message),
    async admin(scope, domains, metadata) {
      const body: Record<string, unknown> = { scope, scopeType: 'team', componentId: 'c1', domains };
      if (metadata) body.metadata = metadata;
      const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!response.ok) throw new Error(`admin edit: ${response.status} ${await response.text()}`);
    },
    live(scope) {
      const stored = emulator.data().scopes[`team/${scope}`]?.autojoin;
      if (!stored) return Promise.resolve({ domains: [], metadata: null, deactivated: true });
      const metadata = stored.invitation.metadata as Record<string, unknown> | null;
      return Promise.resolve({ domains: stored.domains.map((d) => d.domain).sort(), metadata, deactivated: stored.invitation.deactivated });
    },
    async close() {
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The text of a team policy file declaring `scope` with `domains` (component c1). */
export const teamPolicy = (scope: string, domains: string[]): string => `scope: ${scope}\nscopeType: team\ncomponentId: c1\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

/**
 * Call at the top of a test file: @returns {@link repo}, whose repositories (and emulators) are
 * closed after each test.
 */
export function reposClosedAfterEach(): typeof repo {
  const open: Repo[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async (files, how) => {
    const r = await repo(files, how);
    open.push(r);
    return r;
  };
}
