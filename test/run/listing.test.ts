/** The listing setting's one home: flag > AUTOJOIN_LISTING > project file > autojoin. */
import { describe, expect, it } from 'vitest';
import { resolveListing } from '../../src/run/listing.js';
import { parseInputs } from '../../src/action/inputs.js';

describe('resolveListing', () => {
  it.each([
    ['by-scope', 'autojoin', 'by-group', 'by-scope'],
    [undefined, 'autojoin', 'by-scope', 'autojoin'],
    [undefined, ' by-scope ', undefined, 'by-scope'],
    [undefined, '', 'autojoin', 'autojoin'],
    [undefined, undefined, undefined, 'autojoin'],
  ] as const)('flag %j, AUTOJOIN_LISTING %j, project %j → %s', (flag, env, project, expected) => {
    expect(resolveListing(flag, { listing: project }, { AUTOJOIN_LISTING: env })).toBe(expected);
  });

  it('refuses an unknown AUTOJOIN_LISTING, naming it and the modes', () => {
    expect(() => resolveListing(undefined, {}, { AUTOJOIN_LISTING: 'by-team' })).toThrow(
      'AUTOJOIN_LISTING must be one of by-group, by-scope, autojoin, got "by-team"',
    );
  });

  it("the action's listing input takes the same modes", () => {
    const inputs = (listing: string) => parseInputs((name) => (name === 'listing' ? listing : ''));
    expect(inputs('autojoin').listing).toBe('autojoin');
    expect(inputs('').listing).toBeUndefined();
    expect(() => inputs('sideways')).toThrow('input listing: "sideways" is not one of by-group, by-scope, autojoin');
  });
});
