import { describe, expect, it } from 'vitest';
import { parsePolicySources } from '../../src/policy/index.js';
import { prunedFromHistory, scopesAtAGlance } from '../../src/reconcile/prune.js';
import type { ReplacedSource } from '../../src/reconcile/history.js';

const doc = (scope: string, extra = ''): string => `scope: ${scope}\nscopeType: team\ncomponentId: c\n${extra}domains:\n  - ${scope}.example\n`;

describe('scopesAtAGlance', () => {
  it.each([
    ['one document', doc('a'), ['team/a']],
    ['several documents, comments, a leading ---, CRLF', `# head\n---\n${doc('a')}---  # two\n${doc('b')}`.replace(/\n/g, '\r\n'), ['team/a', 'team/b']],
    ['the default scopeType', 'scope: a # the id\ncomponentId: c\ndomains: []\n', ['workspace/a']],
    ['empty documents', '---\n# nothing\n---\n', []],
  ])('reads %s as the parser does', (_, text, keys) => {
    expect(scopesAtAGlance(text, 'workspace')).toEqual(keys);
    const parsed = parsePolicySources([{ file: 'x.autojoin.yaml', text }], { project: { defaults: { scopeType: 'workspace' } } }).policies;
    expect(parsed.map((policy) => policy.key)).toEqual(keys);
  });

  it('reads a document without scopeType, and no default, as declaring nothing, as the parser does', () => {
    const text = `scope: a\ncomponentId: c\ndomains: []\n---\n${doc('b')}`;
    expect(scopesAtAGlance(text, undefined)).toEqual(['team/b']);
    expect(parsePolicySources([{ file: 'x.autojoin.yaml', text }]).policies.map((policy) => policy.key)).toEqual(['team/b']);
  });

  it.each([
    ['a quoted value', 'scope: "a"\ndomains: []\n'],
    ['a value continued on the next line', 'scope: a\n  b\ndomains: []\n'],
    ['a flow mapping', '{scope: a, scopeType: team, componentId: c, domains: []}\n'],
    ['an anchor', 'scope: &s a\ndomains: []\n'],
    ['a block scalar', 'scope: |\n  a\ndomains: []\n'],
    ['a merge key', '<<: {scope: b}\nscope: a\ndomains: []\n'],
    ['scope twice', 'scope: a\nscope: b\ndomains: []\n'],
    ['a document without scope', 'componentId: c\ndomains: []\n'],
    ['a directive', '%YAML 1.2\n---\nscope: a\n'],
    ['content after ---', '--- {scope: a}\n'],
    ['a quoted key', '"scope": a\n'],
  ])('gives up on %s', (_, text) => {
    expect(scopesAtAGlance(text, 'team')).toBeNull();
  });
});

describe('prunedFromHistory', () => {
  const commit = (subject: string) => ({ commit: subject.padEnd(12, '0'), date: '2025-01-02T03:04:05Z', subject });
  const source = (text: string, subject: string): ReplacedSource => ({ file: 'p/x.autojoin.yaml', text, removedBy: commit(subject) });

  it('takes the newest version of each scope no file declares now, and skips scopes declared now', () => {
    const sources = [
      source(doc('gone', 'scopeName: Newest\n'), 'aaa'),
      source(`${doc('kept')}---\n${doc('gone', 'scopeName: Older\n')}`, 'bbb'),
      source('scope: [broken\n', 'ccc'),
      source('{scope: flow, scopeType: team, componentId: c, domains: [f.example]}\n', 'ddd'),
    ];
    const pruned = prunedFromHistory(sources, new Set(['team/kept']), {});
    expect(pruned.map((policy) => [policy.key, policy.scopeName, policy.removedBy?.subject])).toEqual([
      ['team/gone', 'Newest', 'aaa'],
      ['team/flow', undefined, 'ddd'],
    ]);
  });

  it('ignores a past version without scopeType unless the project file sets defaults.scopeType', () => {
    const sources = [source('scope: untyped\ncomponentId: c\ndomains: [u.example]\n', 'aaa'), source(doc('gone'), 'bbb')];
    expect(prunedFromHistory(sources, new Set(), {}).map((policy) => policy.key)).toEqual(['team/gone']);
    const typed = prunedFromHistory(sources, new Set(), { defaults: { scopeType: 'workspace' } });
    expect(typed.map((policy) => policy.key)).toEqual(['workspace/untyped', 'team/gone']);
  });
});
