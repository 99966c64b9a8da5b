/**
 * The warning limiter (src/render/warning-limit.ts): the first warnings of each kind, every
 * error, and one count line per kind, its number grouped by thousands without ICU (text.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { warningLimiter, WARNINGS_SHOWN_PER_KIND } from '../../src/render/warning-limit.js';
import type { Diagnostic } from '../../src/policy/types.js';

const diagnostic = (code: string, severity: Diagnostic['severity'], line: number): Diagnostic =>
  ({ file: 'p.autojoin.yaml', line, column: 1, severity, code, message: `${code} ${line}` });

describe('warningLimiter', () => {
  it('shows every error and the first warnings of each kind, then counts the rest in one line per kind', () => {
    const limiter = warningLimiter(false);
    const batch = [
      ...Array.from({ length: 1_234 + WARNINGS_SHOWN_PER_KIND }, (_, i) => diagnostic('subdomain', 'warning', i + 1)),
      diagnostic('webmail-domain', 'error', 9_999),
      ...Array.from({ length: 4 }, (_, i) => diagnostic('rule-deny', 'warning', i + 1)),
    ];
    const shown = limiter.take(batch);
    expect(shown.filter((d) => d.code === 'subdomain')).toHaveLength(WARNINGS_SHOWN_PER_KIND);
    expect(shown.filter((d) => d.severity === 'error')).toHaveLength(1);
    // Grouped without toLocaleString, whose first call maps ICU's locale data (about 6 MB, 12-18 ms).
    const icu = vi.spyOn(Number.prototype, 'toLocaleString');
    try {
      expect(limiter.summary()).toEqual(['and 1,234 more subdomain warnings; --verbose shows all', 'and 1 more rule-deny warning; --verbose shows all']);
      expect(icu).not.toHaveBeenCalled();
    } finally {
      icu.mockRestore();
    }
    expect(limiter.summary()).toEqual([]);
  });

  it('shows all with --verbose and counts nothing', () => {
    const limiter = warningLimiter(true);
    const batch = Array.from({ length: 10 }, (_, i) => diagnostic('subdomain', 'warning', i + 1));
    expect(limiter.take(batch)).toEqual(batch);
    expect(limiter.summary()).toEqual([]);
  });
});
