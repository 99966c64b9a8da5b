/** makePlan's hand-over of diagnostics: warnings per batch of files as they are checked, the rest before the read ends; none kept. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePlan } from '../../src/reconcile/index.js';
import { summarize } from '../../src/plan/derived.js';
import { settingsIn } from '../../src/run/settings.js';
import type { Diagnostic } from '../../src/policy/types.js';
import { startPeer, type Peer } from '../service/support/peer.js';

let peer: Peer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await peer?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  peer = dir = undefined;
});

async function planWithHandOver(files: Record<string, string>) {
  peer = await startPeer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-make-plan-'));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  const handed: { diagnostics: readonly Diagnostic[]; requestsBefore: number }[] = [];
  const emulator = peer.emulator;
  const made = await makePlan({
    settings: settingsIn(dir),
    client: peer.client,
    onDiagnostics: (diagnostics) => void handed.push({ diagnostics, requestsBefore: emulator.requests.length }),
  });
  return { made, handed };
}

const policy = (scope: string, domains: string[]) => `scope: ${scope}\nscopeType: default\ncomponentId: c\ndomains:\n${domains.map((d) => `  - ${d}\n`).join('')}`;

describe('makePlan with onDiagnostics', () => {
  it('hands the warnings over before the first request and keeps none of them', async () => {
    const { made, handed } = await planWithHandOver({ 'a.autojoin.yaml': policy('acme', ['acme.com', 'eng.acme.com']) });
    expect(handed[0]?.requestsBefore).toBe(0);
    expect(handed[0]?.diagnostics.map((d) => `${d.file}:${d.line} ${d.severity} ${d.code}`)).toEqual(['a.autojoin.yaml:6 warning subdomain']);
    expect(made.plan && summarize(made.plan).create).toBe(1);
    expect(made.load.diagnostics).toEqual([]);
  });

  it('keeps the errors (nothing is planned or read), having handed them over too', async () => {
    const { made, handed } = await planWithHandOver({ 'a.autojoin.yaml': policy('acme', ['gmail.com', 'eng.acme.com']) });
    expect(made.plan).toBeNull();
    // The warnings of each batch of files as it is checked; the errors once all are loaded.
    expect(handed.map((h) => h.diagnostics.map((d) => d.severity))).toEqual([['warning'], ['error']]);
    expect(made.load.diagnostics.map((d) => d.code)).toEqual(['webmail-domain']);
    expect(peer?.emulator.requests).toEqual([]);
  });
});
