/**
 * URLs that come from data (live metadata, owners, commit subjects) are inert in markdown: GitHub
 * makes a link of a bare `https://…` or `www.…` with no markup, so the one markdown escaping step
 * (escapeMarkdown, src/escape.ts) writes one character of each as an entity. The old escaping left
 * them as they were, and the plan comment showed them as links.
 */
import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from '../../src/escape.js';
import { renderMarkdown } from '../../src/render/index.js';
import { buildPlan } from '../support/plan.js';
import { live, liveMap, marked, NOW, policy } from '../plan/fixtures.js';

/** What GitHub's autolink extension would take for a link: a scheme's `://` or `www.` as written. */
const AUTOLINKED = /[a-z0-9]:\/\/|\bwww\./iu;

describe('URLs from data are inert in markdown', () => {
  it.each(['https://evil.example/x', 'see http://evil.example', 'ftp://a.example', 'www.evil.example', 'WWW.Evil.example/path', 'x:https://a.example'])('escapeMarkdown(%j) holds no link GitHub would make', (text) => {
    const escaped = escapeMarkdown(text);
    expect(escaped).not.toMatch(AUTOLINKED);
    // It reads the same once the entities are decoded.
    expect(escaped.replace(/&#(\d+);/gu, (_, code: string) => String.fromCharCode(Number(code)))).toBe(text);
  });

  it('leaves ordinary text as it was', () => {
    expect(escapeMarkdown('team/a: owner infra, 12:30')).toBe('team/a: owner infra, 12:30');
  });

  it("the plan's markdown: a live owner, live metadata and a commit subject holding URLs", () => {
    const removedBy = { commit: '3f9c2a7e41b0', date: '2025-03-14T10:00:00+01:00', subject: 'Retire, see https://evil.example/pr and www.evil.example' };
    const plan = buildPlan({
      desired: [policy('team/new', ['acme.com'], { metadata: { docs: 'https://evil.example/meta' } })],
      live: liveMap(marked(live('team/other', ['x.com']), 'https://owner.example/claim'), marked(live('team/gone', ['y.com']), 'www.owner.example')),
      pruned: [{ ...policy('team/gone', ['y.com']), removedBy }, { ...policy('team/other', ['x.com']), removedBy }],
      target: 'https://invitations.example.com',
      now: NOW,
    });
    const markdown = renderMarkdown(plan);
    expect(markdown).toContain('evil.example/meta');
    expect(markdown).toContain('owner.example/claim');
    expect(markdown).toContain('evil.example/pr');
    // The only link is none: nothing that came from data is autolinked anywhere in the comment.
    expect(markdown).not.toMatch(AUTOLINKED);
  });
});
