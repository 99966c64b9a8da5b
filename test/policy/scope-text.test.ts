/** Scope ids and types are held to the mixed-script rule of domains: in policy files, the project file and TYPE/ID arguments. */
import { describe, expect, it } from 'vitest';
import { parsePolicySources } from '../../src/policy/index.js';
import { parseProjectSource } from '../../src/policy/project.js';
import { parseScopeKey, splitScopeKey } from '../../src/scope.js';

const CYRILLIC_A = '\u0430';
const policy = (scopeType: string, scope: string): string => `scope: ${scope}\nscopeType: ${scopeType}\ncomponentId: c\ndomains: [a.example]\n`;
const errors = (text: string): string[] =>
  parsePolicySources([{ file: 'p.autojoin.yaml', text }], {}).diagnostics.map((d) => `${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`);

describe('scope ids and types in policy files', () => {
  it('refuses a type that mixes Latin and Cyrillic, at its line and column, naming the character', () => {
    expect(errors(policy(`te${CYRILLIC_A}m`, 'acme-eng'))).toEqual([
      '2:12 error homograph: scopeType "teаm" (te\\u{430}m) mixes scripts (Latin and Cyrillic): the mark of a look-alike',
    ]);
  });

  it('refuses an id that mixes scripts across its words, and one whose non-ASCII Latin letter looks ASCII', () => {
    expect(errors(policy('team', '\u0430\u0441\u043c\u0435-eng'))).toEqual([expect.stringMatching(/^1:8 error homograph: scope "асме-eng" .* mixes scripts \(Cyrillic and Latin\)/u)]);
    expect(errors(policy('team', 'acme-\u0131ng'))).toEqual([expect.stringMatching(/^1:8 error homograph: scope "acme-ıng" .*looks like the ASCII acme-ing/u)]);
  });

  it('accepts ASCII, and an id in one script (with digits and separators)', () => {
    expect(errors(policy('team', 'acme-eng_2'))).toEqual([]);
    expect(errors(policy('команда', 'отдел-42'))).toEqual([]);
    expect(errors(policy('team', '東京-ひらがな'))).toEqual([]);
  });

  it('refuses a look-alike defaults.scopeType in the project file, once, where it stands', () => {
    const project = parseProjectSource({ file: 'autojoin-sync.yaml', text: `defaults:\n  scopeType: te${CYRILLIC_A}m\n` }, '/x/autojoin-sync.yaml');
    expect(project.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toEqual(['2:14 homograph']);
  });
});

describe('TYPE/ID arguments', () => {
  it('parseScopeKey refuses a look-alike type or id; splitScopeKey (for keys the program made) only splits', () => {
    expect(() => parseScopeKey(`te${CYRILLIC_A}m/acme-eng`)).toThrow(/"teаm\/acme-eng" is refused: its scopeType "teаm" \(te\\u\{430\}m\) mixes scripts/u);
    expect(() => parseScopeKey(`team/${CYRILLIC_A}cme`)).toThrow(/its scope "аcme"/u);
    expect(parseScopeKey('team/acme/eng')).toEqual({ scopeType: 'team', scope: 'acme/eng' });
    expect(splitScopeKey(`te${CYRILLIC_A}m/x`)).toEqual({ scopeType: `te${CYRILLIC_A}m`, scope: 'x' });
  });
});
