/**
 * The three formats, offline: budgets on a large run, hostile text inert in each, and each body
 * checked against what its ecosystem publishes: the webhook's JSON Schema (ajv), Slack's Block Kit
 * types (@slack/types, at compile time: `npx tsc` checks this file), and Adaptive Cards as the
 * `adaptivecards` package parses them (no unknown element or property, nothing dropped).
 */
import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as AC from 'adaptivecards';
import type { KnownBlock } from '@slack/types';
import webhookSchema from '../../schemas/notify-webhook.schema.json' with { type: 'json' };
import { renderBody, slackBody, teamsBody, SLACK_MAX_BLOCKS, SLACK_MAX_CHARS, TEAMS_MAX_BYTES, WEBHOOK_MAX_BYTES } from '../../src/notify/formats.js';
import { buildMessage, MAX_DOMAINS_EACH_WAY, type NotifyMessage, type RunOutcome } from '../../src/notify/message.js';
import type { Change } from '../../src/plan/types.js';
import type { ScopeKey } from '../../src/scope.js';

const validateWebhook = new Ajv2020({ strict: true, allErrors: true }).compile(webhookSchema);
const HOSTILE = '<!channel> <https://evil.example|click> *bold* _it_ @here [x](https://evil.example) www.evil.example a@b.example &amp; `tick`';
const FACTS = { owner: 'platform', service: 'invitations.example.com', repository: 'acme/policies', commit: 'a'.repeat(40) };

function change(id: string, added: number, removed = 0): Change {
  const before = Array.from({ length: removed }, (_, i) => `old-${i}.${id}.example`);
  const after = Array.from({ length: added }, (_, i) => `new-${i}.${id}.example`);
  return { kind: removed > 0 ? 'update' : 'create', key: `team/${id}`, scope: id, scopeType: 'team', componentId: 'c1', before, after, reason: 'declared' };
}

function applied(changes: Change[]): RunOutcome {
  return { command: 'apply', plan: { changes, drift: [], target: 'https://invitations.example.com' }, report: { applied: changes.map((c) => ({ key: c.key, kind: c.kind, domains: c.after })), failed: [], skipped: [] }, exitCode: 0 };
}

/** Slack's body as @slack/types types it: this assignment is the check (tsc). */
function typedSlack(message: NotifyMessage): { text: string; blocks: KnownBlock[] } {
  return slackBody(message);
}

/** Parses a card with the adaptivecards package: @returns its parse events and what it serializes back. */
function parseCard(card: object): { events: string[]; back: unknown } {
  const parsed = new AC.AdaptiveCard();
  const context = new AC.SerializationContext();
  parsed.parse(card, context);
  const events = Array.from({ length: context.eventCount }, (_, i) => context.getEventAt(i).message);
  return { events, back: parsed.toJSON() };
}

describe('budgets', () => {
  const big = buildMessage('applied', applied(Array.from({ length: 2000 }, (_, i) => change(`scope-${String(i).padStart(4, '0')}`, 30, 25))), FACTS);

  it('at most 20 domains each way per scope, then a count', () => {
    const first = big.scopes[0];
    expect(first?.added).toHaveLength(MAX_DOMAINS_EACH_WAY);
    expect(first).toMatchObject({ addedMore: 10, removedMore: 5 });
    expect(big.counts).toMatchObject({ scopes: 2000, added: 60_000, removed: 50_000, applied: 2000 });
  });

  it('webhook: at most 256 KB, the scopes left out counted in truncated, valid against its schema', () => {
    const text = renderBody('webhook', big);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(WEBHOOK_MAX_BYTES);
    const body = JSON.parse(text) as { scopes: unknown[]; truncated: { scopes: number } };
    expect(body.scopes.length + body.truncated.scopes).toBe(2000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(WEBHOOK_MAX_BYTES - 4096);
    expect(validateWebhook(body), JSON.stringify(validateWebhook.errors)).toBe(true);
  });

  it('slack: at most 45 blocks and 12,000 characters, then a count of the scopes left out', () => {
    const { text, blocks } = typedSlack(big);
    expect(blocks.length).toBeLessThanOrEqual(SLACK_MAX_BLOCKS);
    const chars = text.length + (JSON.stringify(blocks).match(/"text":"(?:[^"\\]|\\.)*"/gu) ?? []).reduce((sum, one) => sum + (JSON.parse(`{${one}}`) as { text: string }).text.length, 0);
    expect(chars).toBeLessThanOrEqual(SLACK_MAX_CHARS);
    const last = JSON.stringify(blocks.at(-1));
    expect(last).toMatch(/and \d+ more scopes/u);
    for (const block of blocks) if (block.type === 'section') expect(block.text?.text.length).toBeLessThanOrEqual(3000);
  });

  it('teams: one Adaptive Card of at most 24 KB that the adaptivecards package parses whole', () => {
    const text = renderBody('teams', big);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(TEAMS_MAX_BYTES);
    const body = JSON.parse(text) as { attachments: { contentType: string; content: { body: unknown[] } }[] };
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(JSON.stringify(body.attachments[0]?.content.body.at(-1))).toMatch(/and \d+ more scopes/u);
    const card = body.attachments[0]?.content ?? {};
    const { events, back } = parseCard(card);
    expect(events).toEqual([]);
    // Nothing unknown: what the package serializes back holds every element of the card.
    expect(JSON.stringify(back)).toContain('new-0.scope-0000.example');
    expect((back as { body: unknown[] }).body).toHaveLength((card as { body: unknown[] }).body.length);
  });
});

describe('hostile text from live state, commit subjects and policy files is inert', () => {
  const outcome: RunOutcome = {
    command: 'apply',
    plan: { changes: [{ ...change('eng', 1), key: `team/${HOSTILE}` as ScopeKey }], drift: [], target: 'x' },
    report: { applied: [], failed: [{ key: `team/${HOSTILE}` as ScopeKey, kind: 'create', reason: HOSTILE }], skipped: [] },
    exitCode: 1,
  };
  const message = buildMessage('failed', outcome, { ...FACTS, repository: HOSTILE });

  it('slack: no mention, link or markup survives; every value in a code span', () => {
    const { text, blocks } = typedSlack(message);
    const all = text + JSON.stringify(blocks);
    expect(all).not.toContain('<!channel>');
    expect(all).not.toContain('<https://');
    expect(all).toContain('&lt;!channel&gt;');
    expect(all).toContain('&amp;amp;');
    // Outside code spans: only our own words.
    for (const block of blocks) {
      const texts = block.type === 'context' ? block.elements.map((e) => ('text' in e ? e.text : '')) : block.type === 'section' ? [block.text?.text ?? ''] : [];
      for (const one of texts) expect(one.replace(/`[^`]*`/gu, '')).not.toMatch(/[<>*_@]|https?:|www\./u);
    }
  });

  it('teams: values only in TextRuns (no markdown), defanged: no link, address or mention', () => {
    const body = teamsBody(message);
    const card = body.attachments[0].content;
    const all = JSON.stringify(card.body);
    expect(all).not.toContain('https://evil');
    expect(all).not.toContain('www.evil');
    expect(all).not.toContain('@here');
    expect(all).not.toContain('<!channel>');
    expect(all).toContain('https[:]//evil.example');
    for (const element of card.body) if (element.type === 'TextBlock') expect(element.text).not.toContain('evil');
    expect(parseCard(card).events).toEqual([]);
  });

  it('webhook: the values as they are, as data, valid against the schema', () => {
    const body = JSON.parse(renderBody('webhook', message)) as { repository: string };
    expect(body.repository).toBe(HOSTILE);
    expect(validateWebhook(body), JSON.stringify(validateWebhook.errors)).toBe(true);
  });
});
