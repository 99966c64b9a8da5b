import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import { renderText } from '../../src/render/plan-text.js';
import { live, liveMap, noAutojoin, NOW, policy, TARGET, marked } from '../plan/fixtures.js';
import type { ScopeKey } from '../../src/scope.js';

const plan = buildPlan({
  desired: [
    policy('team/acme-eng', ['acme.com', 'acme.io', 'acme.co.uk', 'acme.dev'], { scopeName: 'Acme Engineering' }),
    policy('team/new', ['new.com', 'new.org']),
    policy('team/off', []),
    policy('team/same', ['same.com']),
  ],
  live: liveMap(
    live('team/acme-eng', ['acme.com', 'acme.io', 'acme.co.uk', 'acme.net']),
    noAutojoin('team/new'),
    live('team/off', ['off.com']),
    live('team/same', ['same.com']),
    marked(live('team/old', ['old.com', 'old.org'])),
  ),
  pruned: [policy('team/old', ['old.com'])],
  target: TARGET,
  now: NOW,
});

describe('renderText', () => {
  it('renders a header per change, a line per domain, and the summary last (colour off)', () => {
    expect(renderText(plan, { color: false })).toBe(
      [
        '- team/off  clear (deactivates autojoin): -1',
        '    - off.com',
        '',
        '- team/old  clear (deactivates autojoin): -2 (policy file deleted)',
        '    - old.com',
        '    - old.org',
        '',
        '~ team/acme-eng (Acme Engineering)  update: +1 -1, 3 unchanged',
        '    + acme.dev',
        '    - acme.net',
        '',
        '+ team/new  create: +2',
        '    + new.com',
        '    + new.org',
        '',
        '1 to create, 1 to update, 2 to clear, 1 unchanged.',
        '',
      ].join('\n'),
    );
  });

  it('says how many people joined through an invitation a clear deactivates', () => {
    const joined = (n: number) => ({ ...live('team/off', ['off.com']), autojoin: { invitationId: 'inv_1', acceptsCount: n } });
    const render = (n: number) => renderText(buildPlan({ desired: [policy('team/off', [])], live: liveMap(joined(n)), target: TARGET, now: NOW }), { color: false });
    expect(render(12)).toContain('- team/off  clear (deactivates autojoin; 12 people joined through it): -1\n');
    expect(render(1)).toContain('clear (deactivates autojoin; 1 person joined through it): -1\n');
    expect(render(0)).toContain('clear (deactivates autojoin): -1\n');
  });

  it('says so when nothing changes', () => {
    const same = buildPlan({ desired: [policy('team/a', ['a.com']), policy('team/b', [])], live: liveMap(live('team/a', ['A.com.'])), target: TARGET, now: NOW });
    expect(renderText(same, { color: false })).toBe('No changes. 2 scopes match their policy files.\n');
    const one = buildPlan({ desired: [policy('team/a', ['a.com'])], live: liveMap(live('team/a', ['a.com'])), target: TARGET, now: NOW });
    expect(renderText(one, { color: false })).toBe('No changes. 1 scope matches its policy file.\n');
  });

  it('says "No changes to write" when scopes changed outside are kept as they are live, and counts them apart', () => {
    const same = buildPlan({ desired: [policy('team/a', ['a.com']), policy('team/b', ['b.com'])], live: liveMap(live('team/a', ['a.com']), live('team/b', ['b.com'])), target: TARGET, now: NOW });
    const kept = { ...same, drift: [{ key: 'team/b' as ScopeKey, origin: 'drift' as const, live: ['b.com', 'x.com'], outside: { added: ['x.com'], removed: [], fields: [] } }] };
    const text = renderText(kept, { color: false });
    expect(text).toContain('No changes to write. 1 scope matches its policy file; 1 kept as changed outside (drift: keep).');
    expect(text).not.toContain('2 scopes match');
  });

  it('colours added green, removed red, updates yellow when asked', () => {
    const text = renderText(plan, { color: true });
    expect(text).toContain('\u001b[32m+ acme.dev\u001b[39m');
    expect(text).toContain('\u001b[31m- acme.net\u001b[39m');
    expect(text).toContain('\u001b[33m~\u001b[39m \u001b[1mteam/acme-eng (Acme Engineering)\u001b[22m');
    // eslint-disable-next-line no-control-regex
    expect(text.replace(/\u001b\[\d+m/g, '')).toBe(renderText(plan, { color: false }));
  });

  it('has no escape codes with colour off', () => {
    expect(renderText(plan, { color: false })).not.toContain('\u001b[');
  });
});

describe('renderText: pruning and the embedded emulator', () => {
  it('puts the removing commit under a pruned clear (control characters dropped) and the embedded target first', () => {
    const removedBy = { commit: '3f9c2a7e41b0', date: '2025-03-14T10:00:00+01:00', subject: 'Retire\u001b[31m gone' };
    const pruned = buildPlan({ desired: [], live: liveMap(marked(live('team/gone', ['x.com']))), pruned: [{ ...policy('team/gone', ['x.com']), removedBy }], target: 'embedded', now: NOW });
    expect(renderText(pruned, { color: false })).toBe(
      [
        'Target: the embedded emulator (its state file is named on stderr), not an Invitation Service; set AUTOJOIN_BASE_URL for a real one.',
        '',
        '- team/gone  clear (deactivates autojoin): -1 (policy file deleted)',
        '    removed by 3f9c2a7e41b0 (2025-03-14) "Retire [31m gone"',
        '    - x.com',
        '',
        '0 to create, 0 to update, 1 to clear, 0 unchanged.',
        '',
      ].join('\n'),
    );
    const none = buildPlan({ desired: [], live: liveMap(), target: 'embedded', now: NOW });
    expect(renderText(none, { color: false })).toMatch(/^Target: the embedded emulator .*\n\nNo changes\. 0 scopes/);
  });
});
