/** The subject of the commit that removed a policy reaches terminals: bidi and zero-width characters are shown escaped, never raw. */
import { describe, expect, it } from 'vitest';
import { removalLine } from '../../src/render/describe.js';

describe('removalLine', () => {
  it('escapes bidi overrides, isolates and zero-width characters of a commit subject', () => {
    const subject = 'Retire \u202Eevil.com\u202C and\u200B \u2066x\u2069 \uFEFFold';
    const line = removalLine({ removedBy: { commit: '3f9c2a7e41b0', date: '2025-03-14T10:00:00Z', subject } }) ?? '';
    expect(line).toBe('removed by 3f9c2a7e41b0 (2025-03-14) "Retire \\u{202e}evil.com\\u{202c} and\\u{200b} \\u{2066}x\\u{2069} \\u{feff}old"');
    expect(line).not.toMatch(/[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u);
  });
});
