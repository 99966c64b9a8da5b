/**
 * Shared by the end-to-end tests: an emulator with a recognizable API key, temp project
 * directories, and `cli()`, which spawns the built CLI against that emulator and checks
 * that the key never appears in anything the CLI printed.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, expect } from 'vitest';
import { emptyData, startEmulator, type Emulator, type EmulatorData, type EmulatorOptions } from '../../src/emulator/index.js';
import { CLI_PATH, ignoreClosedPipe, runCli, type CliOptions, type CliResult } from '../support/cli.js';

/** The API key every e2e emulator and CLI run shares; no byte of CLI output may contain it. */
export const SECRET = 'sk-e2e-DO-NOT-PRINT-7f3a9c2e41b8';

export function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run \`node scripts/build.mjs cli\` first`);
}

/**
 * Registers the hooks of an e2e file: the CLI must be built, and after each test the emulator
 * and project that `current()` returns (the file's own variables) are closed and removed.
 */
export function useEmulatorProject(current: () => { emulator?: Emulator; project?: TempProject }): void {
  beforeAll(assertBuilt);
  afterEach(async () => {
    const { emulator, project } = current();
    await emulator?.close();
    await project?.cleanup();
  });
}

export function startTestEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ port: 0, data: emptyData(), apiKey: SECRET, ...options });
}

/** A temp project directory and how to remove it. */
export interface TempProject {
  dir: string;
  cleanup: () => Promise<void>;
}

/** A temp directory holding `files` (path → text); removed by the returned cleanup. */
export async function tempProject(files: Record<string, string> = {}): Promise<TempProject> {
  const dir = await mkdtemp(join(tmpdir(), 'autojoin-e2e-'));
  await writeFiles(dir, files);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
}

/** One policy document. */
export function policy(scope: string, domains: string[], extra: Record<string, string> = {}): string {
  const lines = [`scope: ${scope}`, 'scopeType: team', 'componentId: cmp_e2e'];
  for (const [key, value] of Object.entries(extra)) lines.push(`${key}: ${value}`);
  lines.push(domains.length === 0 ? 'domains: []' : `domains:\n${domains.map((d) => `  - ${d}`).join('\n')}`);
  return `${lines.join('\n')}\n`;
}

/** Runs the built CLI against `emulator` (or with `env` as given) and checks the key stayed secret. */
export async function cli(args: string[], options: CliOptions & { emulator?: Emulator } = {}): Promise<CliResult> {
  const env = options.emulator
    ? { AUTOJOIN_BASE_URL: options.emulator.url, AUTOJOIN_API_KEY: SECRET, ...options.env }
    : { ...options.env };
  const result = await runCli(args, { ...options, env });
  expectNoSecret(result.stdout, `stdout of ${args.join(' ')}`);
  expectNoSecret(result.stderr, `stderr of ${args.join(' ')}`);
  return result;
}

export function expectNoSecret(text: string, where: string): void {
  expect(text.includes(SECRET), `${where} contains the API key`).toBe(false);
}

export async function expectFileHasNoSecret(file: string): Promise<void> {
  expectNoSecret(await readFile(file, 'utf8'), file);
}

/**
 * Sets a scope's live domains through the real API (call 2), as another actor would. The scope
 * carries the ownership marker of `owner` (default: the default owner, as if this repository had
 * written it before); null sends no metadata, so the scope keeps what it had (none when new).
 */
export async function setLive(emulator: Emulator, scope: string, domains: string[], scopeType = 'team', owner: string | null = 'default'): Promise<void> {
  const metadata = owner === null ? {} : { metadata: { 'autojoin-sync.owner': owner } };
  const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': SECRET },
    body: JSON.stringify({ domains, scope, scopeType, componentId: 'cmp_e2e', ...metadata }),
  });
  if (!response.ok) throw new Error(`setLive ${scope}: ${response.status} ${await response.text()}`);
}

/** The live domains of a scope as the emulator stores them; null when autojoin is not active. */
export function liveDomains(data: EmulatorData, scope: string, scopeType = 'team'): string[] | null {
  const stored = data.scopes[`${scopeType}/${scope}`]?.autojoin;
  if (!stored || stored.invitation.deactivated) return null;
  return stored.domains.map((d) => d.domain).sort();
}

export function posts(emulator: Emulator): number {
  return emulator.requests.filter((r) => r.method === 'POST').length;
}

/**
 * Runs the built CLI on a pseudo-terminal (via `script`), typing `input`; stdout and stderr arrive
 * merged. With `typeAfter`, `input` is typed once the output shows that text (a control key such
 * as Ctrl-C typed before the CLI reads the terminal would reach the process as a signal instead).
 */
export async function cliOnTty(
  args: string[],
  options: { cwd: string; emulator: Emulator; input: string; typeAfter?: string },
): Promise<{ code: number | null; output: string }> {
  const command = ['node', CLI_PATH, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', AUTOJOIN_BASE_URL: options.emulator.url, AUTOJOIN_API_KEY: SECRET };
  const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: options.cwd, env, stdio: 'pipe' });
    let output = '';
    let typed = false;
    const type = (): void => {
      typed = true;
      child.stdin.end(options.input);
    };
    const collect = (chunk: string): void => {
      output += chunk;
      if (!typed && options.typeAfter !== undefined && output.includes(options.typeAfter)) type();
    };
    child.stdout.setEncoding('utf8').on('data', collect);
    child.stderr.setEncoding('utf8').on('data', collect);
    child.on('error', reject);
    child.stdin.on('error', ignoreClosedPipe);
    child.on('close', (code) => resolve({ code, output }));
    if (options.typeAfter === undefined) type();
  });
  expectNoSecret(result.output, `terminal output of ${args.join(' ')}`);
  return result;
}

/** Writes a scope straight to the emulator (call 2), as another tool or repository would; metadata only when given. */
export async function seedScope(emulator: Emulator, scope: string, domains: string[], metadata?: Record<string, unknown>): Promise<void> {
  const body = { domains, scope, scopeType: 'team', componentId: 'cmp_e2e', ...(metadata ? { metadata } : {}) };
  const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}
