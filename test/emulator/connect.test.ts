import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/connect/connect.js';
import { RunError } from '../../src/output/exit-codes.js';
import { startEmbeddedEmulator } from '../../src/commands/embedded-emulator.js';
import { DEFAULT_ACCESS_TOKEN, DEFAULT_API_KEY } from '../../src/emulator/index.js';
import { tempDir } from './helpers.js';
import { settingsFrom, settingsIn } from '../../src/run/settings.js';
import type { ProjectConfig } from '../../src/policy/types.js';
import { useWording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';

// The messages asserted here are worded as the CLI words them (src/hint.ts).
useWording(cliWording);

/** connect()'s options for a run in `dir` with this environment (settings resolved from it as the front ends do). */
function at(env: NodeJS.ProcessEnv, extra: { emulator?: boolean; project?: ProjectConfig } = {}): { settings: ReturnType<typeof settingsIn>; env: NodeJS.ProcessEnv } {
  return { settings: settingsIn(dir, { env, project: extra.project, flags: { emulator: extra.emulator } }), env };
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe('connect()', () => {
  it('in CI without a base URL stops with a clear error', async () => {
    const attempt = connect(at({ CI: 'true' }));
    await expect(attempt).rejects.toBeInstanceOf(RunError);
    await expect(connect(at({ CI: 'true' }))).rejects.toThrow(/AUTOJOIN_BASE_URL is not set.*embedded emulator is only for local use/u);
    await expect(access(join(dir, '.autojoin-sync'))).rejects.toThrow();
  });

  it('with an API key but no base URL stops too, outside CI: the key was meant for a real service', async () => {
    const attempt = connect({ ...at({ AUTOJOIN_API_KEY: 'real-key' }), startEmbedded: startEmbeddedEmulator });
    await expect(attempt).rejects.toThrow(/^AUTOJOIN_BASE_URL is not set and AUTOJOIN_API_KEY is set, so a real service was meant: .*pass --emulator or set AUTOJOIN_BASE_URL=embedded\.$/u);
    await expect(access(join(dir, '.autojoin-sync'))).rejects.toThrow();
  });

  it("in a pull request, whose project file's baseUrl is not used, never advises setting baseUrl there", async () => {
    const project = { baseUrl: 'https://project.example.com' };
    const place = { base: dir, paths: ['.'], roots: [dir], stateDir: join(dir, '.autojoin-sync'), projects: [] };
    const settings = settingsFrom(place, project, { flags: {}, env: { GITHUB_ACTIONS: 'true' }, trustProjectBaseUrl: false });
    expect(settings.baseUrl).toBeUndefined();
    const error = (await connect({ settings, baseUrlHint: 'the action input base-url' }).catch((caught: unknown) => caught)) as RunError;
    expect(error.message).toContain('Set AUTOJOIN_BASE_URL, or the action input base-url (with AUTOJOIN_API_KEY / AUTOJOIN_ACCESS_TOKEN) (in a pull request the baseUrl of autojoin-sync.yaml is not used');
    expect(error.message).not.toContain('or baseUrl in');
    // Elsewhere the project file is where a base URL may be set.
    await expect(connect(at({ CI: 'true' }))).rejects.toThrow(/, or baseUrl in autojoin-sync\.yaml/u);
  });

  it('--emulator and AUTOJOIN_BASE_URL=embedded start the embedded emulator in CI too; a front end without one refuses', async () => {
    for (const options of [{ emulator: true, env: { CI: 'true', AUTOJOIN_BASE_URL: 'https://real.example.com' } }, { env: { GITLAB_CI: 'true', AUTOJOIN_BASE_URL: 'embedded' } }]) {
      const connection = await connect({ ...at(options.env, { emulator: options.emulator }), startEmbedded: startEmbeddedEmulator, notice: () => undefined });
      expect(connection).toMatchObject({ embedded: true, target: 'embedded' });
      await connection.close();
    }
    await expect(connect(at({ AUTOJOIN_BASE_URL: 'embedded' }))).rejects.toThrow(/only for local use/u);
  });

  it('refuses http:// to a host that is not loopback, without echoing secrets', async () => {
    const env = { AUTOJOIN_BASE_URL: 'http://example.com', AUTOJOIN_API_KEY: 'key-s3cr3t' };
    const error = await connect(at(env)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RunError);
    expect((error as RunError).message).toContain('http://example.com');
    expect((error as RunError).message).toContain('not loopback');
    expect((error as RunError).message).not.toContain('key-s3cr3t');
  });

  it('accepts http:// on loopback and passes the credentials through', async () => {
    const connection = await connect(at({ AUTOJOIN_BASE_URL: 'http://127.0.0.1:8787/', AUTOJOIN_API_KEY: 'k', AUTOJOIN_ACCESS_TOKEN: 't', CI: 'true' }));
    expect(connection).toMatchObject({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'k', accessToken: 't', embedded: false });
    await connection.close();
  });

  it('takes the project file URL when the environment has none, and the environment over it', async () => {
    const fromProject = await connect({ ...at({}, { project: { baseUrl: 'https://invitations.example.com/base' } }), startEmbedded: startEmbeddedEmulator });
    expect(fromProject).toMatchObject({ baseUrl: 'https://invitations.example.com/base', embedded: false });
    expect(fromProject.apiKey).toBeUndefined();
    const fromEnv = await connect(at({ AUTOJOIN_BASE_URL: 'https://env.example.com' }, { project: { baseUrl: 'https://project.example.com' } }));
    expect(fromEnv.baseUrl).toBe('https://env.example.com');
  });

  it('without a base URL outside CI starts the embedded emulator over .autojoin-sync/emulator.json', async () => {
    const notices: string[] = [];
    const connection = await connect({ ...at({}), startEmbedded: startEmbeddedEmulator, notice: (message) => notices.push(message) });
    try {
      expect(connection).toMatchObject({ embedded: true, apiKey: DEFAULT_API_KEY, accessToken: DEFAULT_ACCESS_TOKEN });
      expect(connection.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/u);
      // Issue 12: then which project file and which host are in use.
      expect(notices).toEqual([
        'note: AUTOJOIN_BASE_URL is not set; using the embedded emulator (state in .autojoin-sync/emulator.json)',
        `using no project file; service host ${new URL(connection.baseUrl).host} (embedded emulator, state in .autojoin-sync/emulator.json)`,
      ]);
      const response = await fetch(`${connection.baseUrl}/api/v1/invitations/autojoin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': connection.apiKey ?? '' },
        body: JSON.stringify({ domains: ['acme.com'], scope: 'acme', scopeType: 'team', componentId: 'c' }),
      });
      expect(response.status).toBe(200);
    } finally {
      await connection.close();
    }
    const state = JSON.parse(await readFile(join(dir, '.autojoin-sync', 'emulator.json'), 'utf8')) as { scopes: Record<string, unknown> };
    expect(Object.keys(state.scopes)).toEqual(['team/acme']);
    expect(await readFile(join(dir, '.autojoin-sync', '.gitignore'), 'utf8')).toBe('*\n');

    const again = await connect({ ...at({}), startEmbedded: startEmbeddedEmulator, notice: () => undefined });
    try {
      const listed = await fetch(`${again.baseUrl}/api/v1/invitations/by-scope/team/acme/autojoin`, { headers: { 'x-api-key': DEFAULT_API_KEY } });
      expect(listed.status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
