import { describe, expect, it } from 'vitest';
import { policyPathRule } from '../../src/policy/index.js';
import { projectFileLocations } from '../../src/history/policy-tree.js';
import { pruneSetting } from '../../src/history/prune.js';
import { keyOf } from '../../src/history/versions.js';

describe('policyPathRule: the one "is this a policy file" rule', () => {
  it.each([
    ['a name under a given directory', ['policies'], 'policies/team/a.autojoin.yaml', true],
    ['the .yml form and a bare autojoin.yaml', ['policies'], 'policies/autojoin.yml', true],
    ['another name under a given directory', ['policies'], 'policies/notes.yaml', false],
    ['a file given by name, whatever its name', ['policies/odd.yaml'], 'policies/odd.yaml', true],
    ['a file outside the given paths', ['policies'], 'other/a.autojoin.yaml', false],
    ['a directory that only starts like a given one', ['policies'], 'policies-old/a.autojoin.yaml', false],
    ['everything under `.`', ['.'], 'deep/er/a.autojoin.yaml', true],
    ['node_modules below a given directory', ['.'], 'x/node_modules/a.autojoin.yaml', false],
    ['our state directory', ['policies'], 'policies/.autojoin-sync/a.autojoin.yaml', false],
    ['a given path with a trailing slash and ./', ['./policies/'], 'policies/a.autojoin.yaml', true],
  ])('%s', (_, given, file, expected) => {
    expect(policyPathRule(given)(file)).toBe(expected);
  });
});

describe('projectFileLocations', () => {
  it('lists the paths’ common directory and every one above it, nearest first', () => {
    expect(projectFileLocations(['teams/eng/policies', 'teams/eng/more'])).toEqual(['teams/eng/autojoin-sync.yaml', 'teams/autojoin-sync.yaml', 'autojoin-sync.yaml']);
    expect(projectFileLocations(['teams/a.autojoin.yaml'])).toEqual(['teams/autojoin-sync.yaml', 'autojoin-sync.yaml']);
    expect(projectFileLocations(['.'])).toEqual(['autojoin-sync.yaml']);
  });
});

describe('pruneSetting', () => {
  it('says nothing (pruning is on) unless prune or prune.history is set', () => {
    expect([{}, { prune: true }, { prune: { keep: ['team/x'] } }, { prune: false }, { prune: { history: false } }].map(pruneSetting)).toEqual([undefined, true, undefined, false, false]);
  });
});

describe('keyOf', () => {
  it('reads a document’s key as the loader does: the document’s scopeType, else the default; strings only', () => {
    const project = { defaults: { scopeType: 'workspace' } };
    expect(keyOf({ scope: 'a', scopeType: 'team' }, project)).toBe('team/a');
    expect(keyOf({ scope: 'a' }, project)).toBe('workspace/a');
    expect(keyOf({ scope: 'a' }, {})).toBeNull();
    expect(keyOf({ scope: 123, scopeType: 'team' }, project)).toBeNull();
    expect(keyOf({ scope: 'a', scopeType: null }, project)).toBeNull();
  });
});
