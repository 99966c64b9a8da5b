/** Owners that differ only by look-alike letters are marked wherever another owner is shown. */
import { describe, expect, it } from 'vitest';
import { ownerLookalikeNote } from '../../src/plan/owner-lookalike.js';
import { OwnedElsewhereError } from '../../src/reconcile/ownership-refusal.js';
import { notManagedEntry } from '../../src/render/describe.js';

const CYRILLIC_I = '\u0456nfra'; // і (Cyrillic) then "nfra"

describe('owner look-alikes', () => {
  it('marks an owner that reads as this run\'s owner, and one that mixes scripts; plain owners are left alone', () => {
    expect(ownerLookalikeNote(CYRILLIC_I, 'infra')).toBe('; a look-alike of this repository\'s owner "infra", not it');
    expect(ownerLookalikeNote('p\u0430yments', 'infra')).toMatch(/^; the owner mixes scripts \(/u);
    expect(ownerLookalikeNote('payments', 'infra')).toBe('');
    expect(ownerLookalikeNote('infra', 'infra')).toBe('');
  });

  it('the refusal to write another owner\'s scope marks a look-alike owner', () => {
    const error = new OwnedElsewhereError([{ key: 'team/a', owner: CYRILLIC_I }], 'infra');
    expect(error.message).toContain(`team/a (owner "${CYRILLIC_I}"; a look-alike of this repository's owner "infra", not it)`);
  });

  it('the "not managed here" list marks a look-alike owner', () => {
    const line = notManagedEntry({ key: 'team/a', owner: CYRILLIC_I }, 'infra');
    expect(line).toContain('a look-alike of this repository\'s owner "infra", not it');
  });
});

describe('the project file\'s owner', () => {
  it('is an error when it mixes scripts or reads as an ASCII name', async () => {
    const { parseProjectSource } = await import('../../src/policy/project.js');
    const load = parseProjectSource({ file: 'autojoin-sync.yaml', text: `owner: ${CYRILLIC_I}\n` }, '/x/autojoin-sync.yaml');
    expect(load.diagnostics).toMatchObject([{ severity: 'error', code: 'homograph', line: 1 }]);
    expect(load.diagnostics[0]?.message).toContain(`owner "${CYRILLIC_I}" mixes scripts (Cyrillic and Latin)`);
    expect(parseProjectSource({ file: 'autojoin-sync.yaml', text: 'owner: infra\n' }, '/x/autojoin-sync.yaml').diagnostics).toEqual([]);
  });
});
