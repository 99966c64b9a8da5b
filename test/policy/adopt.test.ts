import { describe, expect, it } from 'vitest';
import { adoptText, AdoptEditError } from '../../src/policy/adopt-edit.js';

const edit = (text: string, domains: string[], extra: { line?: number; scopeName?: string } = {}): string =>
  adoptText({ file: 'p.autojoin.yaml', text }, [{ line: extra.line ?? 1, domains, scopeName: extra.scopeName }]);

describe('adoptText: a minimal edit of the domains list', () => {
  const file = [
    '# yaml-language-server: $schema=../schemas/autojoin.schema.json',
    'scope: acme-eng   # the team',
    'scopeType: team',
    "scopeName: 'Acme Eng'",
    'componentId: cmp_1',
    'domains:',
    '  # the main one',
    '  - acme.com  # keep me',
    '  - old.example',
    '  - domain: contractor.example',
    '    expires: 2027-01-31',
    '    reason: audit',
    '  - zeta.example',
    '',
  ].join('\n');

  it('removes the lines of entries that went and appends those that came, in canonical order', () => {
    const out = edit(file, ['acme.com', 'contractor.example', 'zeta.example', 'new-b.example', 'new-a.example']);
    expect(out).toBe(file.replace('  - old.example\n', '').replace('  - zeta.example\n', '  - zeta.example\n  - new-a.example\n  - new-b.example\n'));
  });

  it('keeps an object entry with its expires and reason when its domain survives, and drops all its lines when not', () => {
    expect(edit(file, ['acme.com', 'contractor.example', 'old.example', 'zeta.example'])).toBe(file);
    const out = edit(file, ['acme.com', 'old.example', 'zeta.example']);
    expect(out).not.toContain('contractor');
    expect(out).not.toContain('expires');
    expect(out).toContain('  - old.example\n  - zeta.example\n');
  });

  it('matches Unicode and punycode, and case, alike', () => {
    const text = 'scope: a\nscopeType: team\ncomponentId: c\ndomains:\n  - München-X.de\n';
    expect(edit(text, ['xn--mnchen-x-65a.de'])).toBe(text);
  });

  it('rewrites an inline list inline, and a list that keeps nothing as []', () => {
    const text = 'scope: a\nscopeType: team\ncomponentId: c\ndomains: [b.example, a.example]  # inline\n';
    expect(edit(text, ['a.example', 'c.example'])).toBe('scope: a\nscopeType: team\ncomponentId: c\ndomains: [a.example, c.example]  # inline\n');
    expect(edit(file, [])).toContain('domains: []\n');
    expect(edit('scope: a\nscopeType: team\ncomponentId: c\ndomains: []\n', ['x.example'])).toContain('domains: [x.example]\n');
  });

  it('edits only the document named by its line; the others stay', () => {
    const two = `${file}---\nscope: other\nscopeType: team\ncomponentId: c\ndomains:\n  - other.example\n`;
    const out = edit(two, ['other.example', 'more.example'], { line: 16 });
    expect(out).toBe(`${file}---\nscope: other\nscopeType: team\ncomponentId: c\ndomains:\n  - other.example\n  - more.example\n`);
  });

  it('writes a managed name changed outside, and refuses a file with errors', () => {
    expect(edit(file, ['acme.com', 'contractor.example', 'old.example', 'zeta.example'], { scopeName: 'Acme Engineering' })).toContain('scopeName: "Acme Engineering"\n');
    expect(() => edit('scope: [\n', ['a.example'])).toThrow(AdoptEditError);
  });
});
