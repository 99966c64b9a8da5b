/** Small helpers for talking to the emulator with plain fetch in tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A started emulator plus request helpers bound to its URL and credentials. */
export interface TestPeer {
  emulator: Emulator;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Answer>;
  sync(body: { domains: string[]; scope: string; scopeType?: string; componentId?: string; scopeName?: string }): Promise<Answer>;
  preset(path: string): Promise<Answer>;
}

export async function startPeer(options: EmulatorOptions = {}): Promise<TestPeer> {
  const emulator = await startEmulator(options);
  const keyed = { 'x-api-key': emulator.apiKey };
  const get = (path: string, headers: Record<string, string> = keyed) => call(emulator.url + path, { headers });
  const post = (path: string, body: unknown, headers: Record<string, string> = keyed) =>
    call(emulator.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    emulator,
    get,
    post,
    sync: (body) => post('/api/v1/invitations/autojoin', { scopeType: 'team', componentId: 'cmp-1', ...body }),
    preset: (path) => get(path, { authorization: `Bearer ${emulator.accessToken}` }),
  };
}

async function call(url: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** A fresh temp directory, removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'autojoin-emulator-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export const LIST = '/api/v1/invitations/by-scope';
