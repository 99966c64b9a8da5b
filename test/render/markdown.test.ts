import { describe, expect, it } from 'vitest';
import { buildPlan } from '../support/plan.js';
import type { Plan } from '../../src/plan/types.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { live, liveMap, NOW, policy, TARGET, marked } from '../plan/fixtures.js';

const plan = buildPlan({
  desired: [
    policy('team/acme-eng', ['acme.com', 'acme.dev'], { scopeName: 'Acme Engineering' }),
    policy('team/new', ['new.com']),
    policy('team/off', []),
    policy('team/same', ['same.com']),
  ],
  live: liveMap(live('team/acme-eng', ['acme.com', 'acme.net']), live('team/off', ['off.com']), live('team/same', ['same.com'])),
  target: TARGET,
  now: NOW,
});

function bigPlan(scopes: number): Plan {
  const desired = Array.from({ length: scopes }, (_, i) => policy(`team/scope-${String(i).padStart(4, '0')}`, [`new-${i}.com`, `kept-${i}.com`]));
  const current = liveMap(...desired.map((p, i) => live(p.key, [`kept-${i}.com`, `old-${i}.com`, ...(i % 100 === 0 ? [`x1-${i}.com`, `x2-${i}.com`] : [])])));
  return buildPlan({ desired, live: current, target: TARGET, now: NOW });
}

describe('renderMarkdown', () => {
  it('puts the summary first, then a details block with a diff fence per changed scope', () => {
    expect(renderMarkdown(plan, { footer: '<!-- autojoin-sync -->' })).toBe(
      [
        '### autojoin-sync plan',
        '',
        '**1 to create, 1 to update, 1 to clear, 1 unchanged.** Domains: +2 -2.',
        '',
        '<details open><summary><code>-</code> <b>team/off</b> — clear (deactivates autojoin): -1</summary>',
        '',
        'Declared in policies/off.autojoin.yaml:1.',
        '',
        '```diff',
        '- off.com',
        '```',
        '',
        '</details>',
        '',
        '<details><summary><code>~</code> <b>team/acme-eng</b> (Acme Engineering) — update: +1 -1, 1 unchanged</summary>',
        '',
        'Declared in policies/acme-eng.autojoin.yaml:1.',
        '',
        '```diff',
        '  acme.com',
        '+ acme.dev',
        '- acme.net',
        '```',
        '',
        '</details>',
        '',
        '<details><summary><code>+</code> <b>team/new</b> — create: +1</summary>',
        '',
        'Declared in policies/new.autojoin.yaml:1.',
        '',
        '```diff',
        '+ new.com',
        '```',
        '',
        '</details>',
        '',
        '<!-- autojoin-sync -->',
        '',
      ].join('\n'),
    );
  });

  it('points a pruned clear at the file it came from', () => {
    const pruned = buildPlan({ desired: [], live: liveMap(marked(live('team/gone', ['x.com']))), pruned: [policy('team/gone', ['x.com'])], target: TARGET, now: NOW });
    expect(renderMarkdown(pruned)).toContain('\n\nPolicy file deleted (it was policies/gone.autojoin.yaml:1 at the --prune-from revision).\n\n```diff\n- x.com\n');
  });

  it('says so when nothing changes, with a custom title and the shard', () => {
    const same = buildPlan({ desired: [policy('team/a', ['a.com'])], live: liveMap(live('team/a', ['a.com'])), target: TARGET, now: NOW, shard: { index: 1, total: 1 } });
    expect(renderMarkdown(same, { title: 'Plan for prod' })).toBe('### Plan for prod\n\nNo changes. 1 scope matches its policy file. Shard 1/1.\n');
  });

  it('escapes HTML and markdown in scope names and keys', () => {
    const hostile = buildPlan({
      desired: [policy('team/<b>x</b>', ['a.com'], { scopeName: '<img src=x onerror=alert(1)> **bold** [link](http://e) @everyone `code` | pipe' })],
      live: liveMap(),
      target: TARGET,
      now: NOW,
    });
    const text = renderMarkdown(hostile);
    expect(text).toContain('<b>team/&#60;b&#62;x&#60;/b&#62;</b>');
    expect(text).toContain('(&#60;img src=x onerror=alert(1)&#62; &#42;&#42;bold&#42;&#42; &#91;link&#93;(http&#58;//e) &#64;everyone &#96;code&#96; &#124; pipe)');
    expect(text).not.toContain('<img');
    expect(text).not.toContain('@everyone');
  });

  it('never exceeds maxChars: 3,000 scopes keep the summary, the largest changes, and say how many were omitted', () => {
    const big = bigPlan(3000);
    const text = renderMarkdown(big, { footer: '<!-- autojoin-sync -->' });
    expect(text.length).toBeLessThanOrEqual(60_000);
    expect(text.startsWith('### autojoin-sync plan\n\n**0 to create, 3000 to update, 0 to clear, 0 unchanged.**')).toBe(true);
    const shown = text.match(/<details>/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(100);
    expect(text).toContain(`_${3000 - shown} changed scopes omitted here to stay under 60000 characters; see the job summary or the full plan`);
    // The 30 largest changes (3 removals each) are all kept.
    for (let i = 0; i < 3000; i += 100) expect(text).toContain(`<b>team/scope-${String(i).padStart(4, '0')}</b>`);
    expect(text.endsWith('<!-- autojoin-sync -->\n')).toBe(true);
  });

  it('respects a small maxChars exactly, even below the summary size', () => {
    const big = bigPlan(50);
    for (const maxChars of [2000, 500, 40]) expect(renderMarkdown(big, { maxChars }).length).toBeLessThanOrEqual(maxChars);
    expect(renderMarkdown(big, { maxChars: 2000 })).toMatch(/_\d+ changed scopes omitted here to stay under 2000 characters;/);
  });

  it('keeps the whole plan when it fits', () => {
    const text = renderMarkdown(bigPlan(20));
    expect(text.match(/<details>/g)).toHaveLength(20);
    expect(text).not.toContain('omitted');
  });
});

describe('renderMarkdown: pruning and the embedded emulator', () => {
  const removedBy = { commit: '3f9c2a7e41b0', date: '2025-03-14T10:00:00+01:00', subject: 'Retire <b>gone</b> *now*' };
  const plan = buildPlan({ desired: [], live: liveMap(marked(live('team/gone', ['x.com']))), pruned: [{ ...policy('team/gone', ['x.com']), removedBy }], target: 'embedded', now: NOW });

  it('names the commit that removed a pruned scope, escaped, and warns that the target is the embedded emulator', () => {
    const markdown = renderMarkdown(plan);
    expect(markdown).toMatch(/^### autojoin-sync plan\n\n:warning: Target: the embedded emulator/);
    expect(markdown).toContain(
      'No policy file declares this scope any more (it was policies/gone.autojoin.yaml:1); removed by 3f9c2a7e41b0 (2025-03-14) &#34;Retire &#60;b&#62;gone&#60;/b&#62; &#42;now&#42;&#34;.',
    );
  });
});
