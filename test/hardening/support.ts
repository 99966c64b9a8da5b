/**
 * Shared by the hardening suites: generated estates (policy files + the emulator data they are
 * applied to), the emulator as a separate process (so a SIGKILL can hit either side), a
 * spawned CLI that can be killed mid-run, and the "as declared or as before" check.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import { generateData, type EmulatorData } from '../../src/emulator/index.js';
import { replayJournal } from '../../src/emulator/journal.js';
import { parseScopeKey } from '../../src/scope.js';
import { MAY_BE_STORED } from '../../src/apply/apply-changes.js';
import { markerOf } from '../../src/plan/ownership.js';
import { createClient, readLiveState } from '../../src/service/index.js';
import { runCli, startEmulatorProcess, stop, type EmulatorProcess } from '../support/cli.js';

export { LONG } from '../support/long.js';
/** Key of every emulator and CLI run in these suites. */
export const KEY = 'hardening-key-5d1e'; // as startEmulatorProcess's default key
const SCOPES_PER_FILE = 10;

/** Live domains of one scope as the reader sees them: [] unless its autojoin invitation is active. */
export function liveDomainsOf(data: EmulatorData, key: string): string[] {
  const stored = data.scopes[key]?.autojoin;
  if (!stored || stored.invitation.deactivated) return [];
  return stored.domains.map((domain) => domain.domain).sort();
}

/**
 * An estate of `scopes` scopes: 80 % exist in the emulator (scope-0001…, 2 domains each, 3
 * ordinary invitations), 20 % are new (workspace/fresh-…). `variant` shifts which scopes are
 * cleared, kept, updated or grown, so consecutive variants always have work to do.
 */
export interface Estate {
  seed: EmulatorData;
  /** Scope key → the sorted domains variant v declares. */
  declared(variant: number): Map<string, string[]>;
}

export function makeEstate(scopes: number): Estate {
  const existing = Math.round(scopes * 0.8);
  const seed = generateData({ scopes: existing, invitationsPerScope: 3, domainsPerScope: 2, seed: 11 });
  return {
    seed,
    declared(variant) {
      const result = new Map<string, string[]>();
      for (let i = 1; i <= scopes; i++) {
        const isNew = i > existing;
        const scope = isNew ? `fresh-${String(i).padStart(4, '0')}` : `scope-${String(i).padStart(4, '0')}`;
        result.set(`${isNew ? 'workspace' : 'team'}/${scope}`, domainsFor(scope, i + variant, variant));
      }
      return result;
    },
  };
}

function domainsFor(scope: string, pick: number, variant: number): string[] {
  const d = (name: string): string => `${name}.${scope}.example`;
  switch (pick % 5) {
    case 0: return [];
    case 1: return [d('d1'), d('d2')];
    case 2: return [d('d1'), d(`v${variant}-a`)].sort();
    case 3: return [d(`v${variant}-a`), d(`v${variant}-b`), d(`v${variant}-c`)].sort();
    default: return [d('d1'), d('d2'), d(`v${variant}-x`)].sort();
  }
}

/** Writes the declared estate as policy files (10 documents a file) into `dir`, replacing what was there. */
export async function writeEstate(dir: string, declared: Map<string, string[]>): Promise<void> {
  await mkdir(dir, { recursive: true });
  const docs = [...declared].map(([key, domains]) => {
    const [scopeType, scope] = key.split('/') as [string, string];
    const list = domains.length === 0 ? 'domains: []' : `domains:\n${domains.map((domain) => `  - ${domain}`).join('\n')}`;
    return `scope: ${scope}\nscopeType: ${scopeType}\ncomponentId: cmp_hardening\n${list}\n`;
  });
  for (let first = 0; first < docs.length; first += SCOPES_PER_FILE) {
    const name = `estate-${String(first / SCOPES_PER_FILE).padStart(3, '0')}.autojoin.yaml`;
    await writeFile(path.join(dir, name), docs.slice(first, first + SCOPES_PER_FILE).join('---\n'));
  }
}

/**
 * The one invariant that must hold after any run, however it ended: every scope is exactly as
 * declared or exactly as it was before (a write is all or nothing per scope).
 * @returns the keys that are not (yet) as declared
 */
export function expectDeclaredOrBefore(data: EmulatorData, declared: Map<string, string[]>, before: EmulatorData): string[] {
  const pending: string[] = [];
  for (const [key, domains] of declared) {
    const live = liveDomainsOf(data, key);
    if (JSON.stringify(live) === JSON.stringify(domains)) continue;
    expect(live, `${key} is neither as declared nor as before`).toEqual(liveDomainsOf(before, key));
    pending.push(key);
  }
  return pending.sort();
}

export function expectAllDeclared(data: EmulatorData, declared: Map<string, string[]>): void {
  const wrong = [...declared].filter(([key, domains]) => JSON.stringify(liveDomainsOf(data, key)) !== JSON.stringify(domains));
  expect(wrong.map(([key]) => key)).toEqual([]);
}

/** Keys the apply report lists as failed (`failed  KEY  kind: reason`). */
export function reportedFailed(stdout: string): string[] {
  return [...stdout.matchAll(/^failed\s+(\S+)\s/gm)].map((match) => match[1] as string).sort();
}

/** Keys the apply report lists as failed with an unknown outcome: the write may or may not have been stored (src/apply/apply-changes.ts). */
export function reportedUnknown(stdout: string): string[] {
  return [...stdout.matchAll(new RegExp(`^failed\\s+(\\S+)\\s.*: ${MAY_BE_STORED} \\(a plan shows which\\)$`, 'gm'))].map((match) => match[1] as string).sort();
}

/**
 * Keys of `declared` that this run has not written as declared: their domains differ, or the
 * service holds their autojoin invitation without the ownership marker a write adds (an update
 * that only marks the owner leaves the domains as they were: written or not, they look declared).
 */
export function notWrittenAsDeclared(data: EmulatorData, declared: Map<string, string[]>): string[] {
  return [...declared]
    .filter(([key, domains]) => {
      const autojoin = data.scopes[key]?.autojoin;
      const sameDomains = JSON.stringify(liveDomainsOf(data, key)) === JSON.stringify(domains);
      return !sameDomains || (autojoin !== null && autojoin !== undefined && markerOf(autojoin.invitation.metadata) === null);
    })
    .map(([key]) => key)
    .sort();
}

/** Reads the emulator data file; it must always be complete JSON of the emulator's format. */
export async function readDataFile(file: string): Promise<EmulatorData> {
  const text = await readFile(file, 'utf8');
  let data: EmulatorData;
  try {
    data = JSON.parse(text) as EmulatorData;
  } catch (error) {
    throw new Error(`${file} is corrupt (${(error as Error).message}); ${text.length} bytes, ending ${JSON.stringify(text.slice(-40))}`);
  }
  expect(data.formatVersion).toBe(1);
  expect(typeof data.scopes).toBe('object');
  // Writes since the last compaction live in the journal; it must replay cleanly too.
  await replayJournal(file, data);
  return data;
}

/** The CLI's environment for a run against `url`. */
export function serviceEnv(url: string): Record<string, string> {
  return { AUTOJOIN_BASE_URL: url, AUTOJOIN_API_KEY: KEY };
}

/** The live state of `keys`, as the real reader sees it, in the emulator's data shape (for the checks above). */
export async function liveData(url: string, keys: Iterable<string>): Promise<EmulatorData> {
  const client = createClient({ baseUrl: url, apiKey: KEY });
  try {
    const live = await readLiveState(client, [...keys].map((key) => parseScopeKey(key)), { mode: 'by-scope' });
    return declaredData(new Map([...live].map(([key, scope]) => [key, scope.autojoin ? scope.domains : []])));
  } finally {
    await client.close();
  }
}

/** A declared estate in the emulator's data shape, to serve as the "before" of the next run. */
export function declaredData(declared: Map<string, string[]>): EmulatorData {
  const scopes: Record<string, unknown> = {};
  for (const [key, domains] of declared) {
    const stored = domains.map((domain, i) => ({ id: String(i), domain }));
    scopes[key] = { autojoin: { invitation: { deactivated: domains.length === 0 }, domains: stored } };
  }
  return { scopes } as unknown as EmulatorData;
}

/** A temp directory, removed by the cleanup pushed onto `cleanups`. */
export async function tempDir(cleanups: (() => Promise<unknown>)[]): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-hardening-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Registers an afterEach that runs, newest first, the cleanups pushed onto the returned list
 * during a test (temp directories, emulators, processes).
 */
export function useCleanups(): (() => Promise<unknown>)[] {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Times a plan (the read phase alone) and then an apply (reads + writes) of the policies in
 * `dir`/policies, so kills can be aimed at the writes: between 0.9 × readMs and fullMs.
 */
export async function measureApply(dir: string, url: string, args: string[]): Promise<{ readMs: number; fullMs: number }> {
  let started = performance.now();
  const plan = await runCli(['plan', 'policies', ...args], { cwd: dir, env: serviceEnv(url) });
  const readMs = performance.now() - started;
  expect(plan.code, plan.stderr).toBe(0);
  started = performance.now();
  const apply = await runCli(['apply', 'policies', '--yes', ...args], { cwd: dir, env: serviceEnv(url) });
  expect(apply.code, apply.stderr).toBe(0);
  return { readMs, fullMs: performance.now() - started };
}

/** Where a kill suite starts from: variant 0 applied, and how long its phases took. */
export interface KillRun {
  dir: string;
  dataFile: string;
  estate: Estate;
  emulator: EmulatorProcess;
  readMs: number;
  fullMs: number;
}

/**
 * Sets up a kill suite: a temp directory, an estate of `scopes` whose seed is the data file of
 * an emulator process started with `emulatorArgs` (stopped by a cleanup), and variant 0
 * applied once with `applyArgs` to time the phases (see measureApply).
 */
export async function startKillRun(cleanups: (() => Promise<unknown>)[], scopes: number, emulatorArgs: string[], applyArgs: string[]): Promise<KillRun> {
  const dir = await tempDir(cleanups);
  const dataFile = path.join(dir, 'emulator.json');
  const estate = makeEstate(scopes);
  await writeFile(dataFile, JSON.stringify(estate.seed));
  const emulator = await startEmulatorProcess(dir, dataFile, emulatorArgs);
  cleanups.push(() => stop(emulator));
  await writeEstate(path.join(dir, 'policies'), estate.declared(0));
  const { readMs, fullMs } = await measureApply(dir, emulator.url, applyArgs);
  return { dir, dataFile, estate, emulator, readMs, fullMs };
}
