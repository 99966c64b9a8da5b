/**
 * The owners of a run's projects are the run's, handed to the plan (RunSettings.runOwners), never
 * module state: after a run of three projects in this process (the fast tier runs many files in
 * one), a plan made without them sees another owner's marker as another owner's, not a move.
 */
import { describe, expect, it } from 'vitest';
import { planBuilder } from '../../src/plan/plan-builder.js';
import { MARKER_KEYS } from '../../src/plan/ownership.js';
import type { Policy } from '../../src/policy/types.js';
import type { LiveScope } from '../../src/service/types.js';
import { monorepoCli, monorepoOfTest } from '../support/monorepo-run.js';

const policy: Policy = { key: 'team/acme-platform', scope: 'acme-platform', scopeType: 'team', componentId: 'cmp', domains: ['acme.com'], source: { file: 'platform.autojoin.yaml', line: 1, column: 1 }, explicitEmpty: false };
const markedByEng: LiveScope = {
  key: 'team/acme-platform',
  scope: 'acme-platform',
  scopeType: 'team',
  domains: ['acme.com'],
  autojoin: { invitationId: 'inv-platform', acceptsCount: 0 },
  metadata: { [MARKER_KEYS.owner]: 'eng', [MARKER_KEYS.commit]: 'c'.repeat(40) },
};

/** The markers a plan of owner sales places in history (history-place.ts): those it may re-mark as a move, or its own. */
function markersPlaced(runOwners?: ReadonlySet<string>): number {
  const builder = planBuilder({ target: 'https://invitations.example.com', owner: 'sales', ...(runOwners ? { runOwners } : {}) });
  builder.add(policy, markedByEng);
  return builder.markers().size;
}

describe("the run's owners", () => {
  it('move a scope only within the run that names them; nothing is left for the next plan of this process', async () => {
    const plan = await monorepoCli(monorepoOfTest(), 'plan');
    expect(plan.code, plan.stderr).toBe(0);
    expect(markersPlaced()).toBe(0);
    expect(markersPlaced(new Set(['eng', 'ops', 'sales']))).toBe(1);
    expect(markersPlaced(new Set(['ops', 'sales']))).toBe(0);
  }, 60_000);
});
