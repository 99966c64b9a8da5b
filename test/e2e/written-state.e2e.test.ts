/**
 * The state a write leaves is built once (writtenStateOf): the digest apply records in the marker
 * and the one drift recomputes from the files must agree for a policy that manages its name and
 * metadata too. Outside git there is no state at the marker's commit to fall back on, so a
 * mismatch would show an admin's edit as this repository's own change instead of drift.
 */
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { cli, policy, SECRET, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

const NAMED = policy('eng', ['eng.example'], { scopeName: 'Engineering', metadata: '{ team: platform, cost: "42", tags: [a, b] }' });

describe('the state a write leaves', () => {
  it('is the same for the marker apply writes and the drift check: an outside edit of a named scope with metadata is drift', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'eng.autojoin.yaml': NAMED });
    const first = await cli(['apply', '--yes'], { cwd: project.dir, emulator });
    expect(first.code, first.stderr).toBe(0);
    const again = await cli(['plan', '--detailed-exitcode'], { cwd: project.dir, emulator });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes.');
    // An admin adds a domain in the widget: a POST of the complete list without metadata (the marker stays).
    const response = await fetch(`${emulator.url}/api/v1/invitations/autojoin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': SECRET },
      body: JSON.stringify({ domains: ['eng.example', 'partner.example'], scope: 'eng', scopeType: 'team', componentId: 'cmp_e2e' }),
    });
    expect(response.status).toBe(200);
    const plan = await cli(['plan', '--format', 'json'], { cwd: project.dir, emulator });
    expect(plan.code, plan.stderr).toBe(0);
    const changes = (JSON.parse(plan.stdout) as { changes: { key: string; origin?: string; outside?: { added: string[] } }[] }).changes;
    expect(changes).toEqual([expect.objectContaining({ key: 'team/eng', origin: 'drift', outside: expect.objectContaining({ added: ['partner.example'] }) })]);
  });
});
