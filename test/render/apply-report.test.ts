import { describe, expect, it } from 'vitest';
import type { ApplyReport } from '../../src/apply/types.js';
import { renderApplyReportMarkdown, renderApplyReportText } from '../../src/render/apply-report.js';

const report: ApplyReport = {
  applied: [
    { key: 'team/a', kind: 'update', domains: ['a.com', 'b.com'] },
    { key: 'team/c', kind: 'clear', domains: [] },
  ],
  failed: [{ key: 'team/b', kind: 'create', reason: '[POST] /api/v1/invitations/autojoin: 400 webmail domain | gmail.com' }],
  skipped: [{ key: 'team/d', reason: 'interrupted' }],
};

describe('renderApplyReportText', () => {
  it('lists failures first with the reason and ends with the summary', () => {
    expect(renderApplyReportText(report, { color: false })).toBe(
      [
        'failed   team/b  create: [POST] /api/v1/invitations/autojoin: 400 webmail domain | gmail.com',
        'skipped  team/d  interrupted',
        'applied  team/a  update (2 domains)',
        'applied  team/c  clear (0 domains)',
        '',
        'Applied 2, failed 1, skipped 1.',
        '',
      ].join('\n'),
    );
  });

  it('colours when asked and prints only the summary for an empty report', () => {
    expect(renderApplyReportText(report, { color: true })).toContain('\u001b[31mfailed \u001b[39m');
    expect(renderApplyReportText({ applied: [], failed: [], skipped: [] }, { color: false })).toBe('Applied 0, failed 0, skipped 0.\n');
  });
});

describe('renderApplyReportMarkdown', () => {
  it('puts the summary first, then a table row per scope with escaped reasons', () => {
    expect(renderApplyReportMarkdown(report)).toBe(
      [
        '### autojoin-sync apply',
        '',
        '**Applied 2, failed 1, skipped 1.**',
        '',
        '| scope | change | result |',
        '|---|---|---|',
        '| team/b | create | ❌ failed: &#91;POST&#93; /api/v1/invitations/autojoin: 400 webmail domain &#124; gmail.com |',
        '| team/d |  | ⏭️ skipped: interrupted |',
        '| team/a | update | ✅ applied (2 domains) |',
        '| team/c | clear | ✅ applied (0 domains) |',
        '',
      ].join('\n'),
    );
  });

  it('stays under maxChars, keeping failures and counting the omitted rows', () => {
    const many: ApplyReport = {
      applied: Array.from({ length: 3000 }, (_, i) => ({ key: `team/s${i}`, kind: 'update' as const, domains: ['a.com'] })),
      failed: [{ key: 'team/bad', kind: 'update', reason: 'timeout' }],
      skipped: [],
    };
    const text = renderApplyReportMarkdown(many, { maxChars: 5000 });
    expect(text.length).toBeLessThanOrEqual(5000);
    expect(text).toContain('| team/bad | update | ❌ failed: timeout |');
    const rows = (text.match(/^\| team\//gm) ?? []).length;
    expect(text).toContain(`_${3001 - rows} more rows omitted to stay under 5000 characters._`);
  });
});
