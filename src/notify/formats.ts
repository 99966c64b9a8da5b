/**
 * The three bodies of a message, each within its budget (design.md, "Notifications"), with the
 * text from live state, commit subjects and policy files inert in each:
 *
 * - webhook: the message as JSON (`schemas/notify-webhook.schema.json`), at most 256 KB: past
 *   that the last scopes are left out and `truncated` counts them. JSON is data: a receiver
 *   renders nothing of it as markup unless it chooses to.
 * - slack: an incoming-webhook body, `text` and `blocks`, at most 45 blocks and 12,000 characters,
 *   then a count. Every value stands in an inline code span (no mention, link or formatting is
 *   parsed there), with `&`, `<` and `>` escaped as Slack asks and backticks replaced.
 * - teams: a Workflows webhook body with one Adaptive Card, at most 24 KB. Every value stands in a
 *   TextRun of a RichTextBlock (TextRuns take no markdown), and is defanged: `://`, `@` and
 *   `www.` are broken so that no client turns them into a link or an address.
 *
 * Pure: the caller redacts the body (src/output/sinks.ts) before it is signed and sent.
 */
import { escapeControls } from '../escape.js';
import { cutText } from '../redact.js';
import type { MessageScope, NotifyMessage } from './message.js';
import type { NotifyKind } from './targets.js';
import { mostThatFit, prefixWithin } from './fit.js';

export const WEBHOOK_MAX_BYTES = 256 * 1024;
export const SLACK_MAX_BLOCKS = 45;
export const SLACK_MAX_CHARS = 12_000;
export const TEAMS_MAX_BYTES = 24 * 1024;
/** Slack's limit of one section's text. */
const SLACK_SECTION_CHARS = 3_000;
/** Longest free text (an error's or refusal's message, a scope's reason) a body carries. */
const MAX_TEXT = 2_000;

/** The webhook body's shape (schemas/notify-webhook.schema.json). */
export interface WebhookBody extends NotifyMessage {
  /** Set when scopes were left out to stay within 256 KB: how many. */
  truncated?: { scopes: number };
}

/** @returns the body for a target of `kind`, as the JSON text to send */
export function renderBody(kind: NotifyKind, message: NotifyMessage): string {
  const fitted = withCutTexts(message);
  if (kind === 'webhook') return webhookBody(fitted);
  if (kind === 'slack') return JSON.stringify(slackBody(fitted));
  return JSON.stringify(teamsBody(fitted));
}

/** Free texts cut (redacted whole first): one error message cannot take a body's whole budget. */
function withCutTexts(message: NotifyMessage): NotifyMessage {
  return {
    ...message,
    ...(message.error === undefined ? {} : { error: cutText(message.error, MAX_TEXT) }),
    ...(message.refusal === undefined
      ? {}
      : { refusal: { ...message.refusal, reason: cutText(message.refusal.reason, MAX_TEXT), ...(message.refusal.override === undefined ? {} : { override: cutText(message.refusal.override, MAX_TEXT) }) } }),
    scopes: message.scopes.map((scope) => (scope.reason === undefined ? scope : { ...scope, reason: cutText(scope.reason, MAX_TEXT) })),
  };
}

// ---- webhook ----

function webhookBody(message: NotifyMessage): string {
  const text = (count: number): string => {
    const body: WebhookBody = { ...message, scopes: message.scopes.slice(0, count) };
    if (count < message.scopes.length) body.truncated = { scopes: message.scopes.length - count };
    return JSON.stringify(body);
  };
  // Each scope's size once, so the count that fits is found without serializing the body again
  // and again (a large run's body is cut on every apply that notifies).
  const base = Buffer.byteLength(text(0), 'utf8') + 40; // room for `truncated`
  let size = base;
  let count = 0;
  for (const scope of message.scopes) {
    size += Buffer.byteLength(JSON.stringify(scope), 'utf8') + 1;
    if (size > WEBHOOK_MAX_BYTES) break;
    count += 1;
  }
  return text(count);
}

// ---- shared words ----

const TITLES: Readonly<Record<NotifyMessage['event'], string>> = {
  applied: 'applied',
  refused: 'apply refused: nothing was written',
  failed: 'apply failed',
  drift: 'drift found',
};

/** Our own words for the counts (no live text in them). */
function countsLine(message: NotifyMessage): string {
  const { counts } = message;
  const parts = [`${counts.scopes} scope${counts.scopes === 1 ? '' : 's'}`, `${counts.added} domain${counts.added === 1 ? '' : 's'} added`, `${counts.removed} removed`];
  if (counts.outside !== undefined) parts.push(`${counts.outside} changed outside this repository`, `${counts.pending ?? 0} pending from this repository`);
  if (counts.applied !== undefined) parts.push(`${counts.applied} applied`, `${counts.failed ?? 0} failed`, `${counts.skipped ?? 0} skipped`);
  return parts.join(' · ');
}

const ORIGINS: Readonly<Record<MessageScope['origin'], string>> = { repository: 'this repository', outside: 'outside', both: 'this repository and outside' };

function moreText(count: number): string {
  return count > 0 ? ` and ${count} more` : '';
}

// ---- slack ----

/** Block Kit's shapes as @slack/types has them (a test checks they are assignable to its KnownBlock). */
interface SlackMarkdown {
  type: 'mrkdwn';
  text: string;
}
type SlackBlock =
  | { type: 'header'; text: { type: 'plain_text'; text: string } }
  | { type: 'section'; text: SlackMarkdown }
  | { type: 'context'; elements: SlackMarkdown[] };

/** A value as Slack shows it inertly: in an inline code span, `&<>` escaped, backticks replaced, controls escaped. */
function slackCode(value: string): string {
  const flat = escapeControls(value).replace(/`/gu, "'").replace(/&/gu, '&amp;').replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
  return `\`${flat}\``;
}

function slackList(values: readonly string[], more: number): string {
  return values.map(slackCode).join(', ') + moreText(more);
}

function slackScope(scope: MessageScope): string {
  const lines = [`${slackCode(scope.key)} ${scope.kind} (${ORIGINS[scope.origin]}): ${scope.outcome}`];
  if (scope.added.length > 0) lines.push(`added: ${slackList(scope.added, scope.addedMore)}`);
  if (scope.removed.length > 0) lines.push(`removed: ${slackList(scope.removed, scope.removedMore)}`);
  if (scope.reason !== undefined) lines.push(`why: ${slackCode(scope.reason)}`);
  return cutSection(lines.join('\n'));
}

/** A section within Slack's 3,000 characters: cut at a line, never inside a code span. */
function cutSection(text: string): string {
  if (text.length <= SLACK_SECTION_CHARS) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length + 1 > SLACK_SECTION_CHARS - 40) break;
    kept.push(line);
    length += line.length + 1;
  }
  return `${kept.join('\n')}\n(cut: ${lines.length - kept.length} more line${lines.length - kept.length === 1 ? '' : 's'})`;
}

function slackFacts(message: NotifyMessage): string {
  const facts = [`owner ${slackCode(message.owner)}`, `service ${slackCode(message.service)}`];
  if (message.repository) facts.unshift(`repository ${slackCode(message.repository)}`);
  if (message.commit) facts.push(`commit ${slackCode(message.commit.slice(0, 12))}`);
  if (message.shard) facts.push(`shard ${slackCode(message.shard)}`);
  if (message.runUrl) facts.push(`run ${slackCode(message.runUrl)}`);
  return facts.join(' · ');
}

export interface SlackBody {
  text: string;
  blocks: SlackBlock[];
}

/** The Slack body of a message (exported for the tests' checks against @slack/types). */
export function slackBody(message: NotifyMessage): SlackBody {
  const title = `autojoin-sync: ${TITLES[message.event]}`;
  const text = `${title} (${countsLine(message)})`;
  const head: SlackBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: title } },
    { type: 'section', text: { type: 'mrkdwn', text: countsLine(message) } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: slackFacts(message) }] },
  ];
  if (message.refusal) {
    const lines = [`refused by ${slackCode(message.refusal.check)}: ${slackCode(message.refusal.reason)}`];
    if (message.refusal.override) lines.push(`to go ahead: ${slackCode(message.refusal.override)}`);
    head.push({ type: 'section', text: { type: 'mrkdwn', text: cutSection(lines.join('\n')) } });
  }
  if (message.error !== undefined) head.push({ type: 'section', text: { type: 'mrkdwn', text: cutSection(`error: ${slackCode(message.error)}`) } });
  // No more scopes than blocks can hold: a large run's other scopes are only counted.
  const scopes = message.scopes.slice(0, SLACK_MAX_BLOCKS).map((scope): SlackBlock => ({ type: 'section', text: { type: 'mrkdwn', text: slackScope(scope) } }));
  const chars = (blocks: readonly SlackBlock[]): number => text.length + blocks.reduce((sum, block) => sum + blockChars(block), 0);
  const build = (count: number): SlackBlock[] => {
    const blocks = [...head, ...scopes.slice(0, count)];
    const left = message.scopes.length - count;
    if (left > 0) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `and ${left} more scope${left === 1 ? '' : 's'} (see the run's report)` }] });
    return blocks;
  };
  const count = mostThatFit(scopes.length, (n) => {
    const blocks = build(n);
    return blocks.length <= SLACK_MAX_BLOCKS && chars(blocks) <= SLACK_MAX_CHARS;
  });
  return { text, blocks: build(count) };
}

function blockChars(block: SlackBlock): number {
  return block.type === 'context' ? block.elements.reduce((sum, element) => sum + element.text.length, 0) : block.text.text.length;
}

// ---- teams ----

/** A value defanged for Teams: no link, address or mention can be made of it; controls escaped. */
function defang(value: string): string {
  return escapeControls(value)
    .replace(/:\/\//gu, '[:]//')
    .replace(/@/gu, '[@]')
    .replace(/\bwww\./giu, (www) => `${www.slice(0, 3)}[.]`)
    .replace(/</gu, '‹')
    .replace(/>/gu, '›');
}

interface TextRun {
  type: 'TextRun';
  text: string;
  weight?: 'Bolder';
  fontType?: 'Monospace';
}
type CardElement =
  | { type: 'TextBlock'; text: string; wrap: true; weight?: 'Bolder'; size?: 'Medium'; isSubtle?: true }
  | { type: 'RichTextBlock'; inlines: TextRun[] };

export interface TeamsBody {
  type: 'message';
  attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard }];
}

interface AdaptiveCard {
  $schema: string;
  type: 'AdaptiveCard';
  version: '1.4';
  body: CardElement[];
  actions?: { type: 'Action.OpenUrl'; title: string; url: string }[];
}

/** Our words, then values (each a monospace TextRun, defanged). */
function rich(...parts: (string | { value: string })[]): CardElement {
  return {
    type: 'RichTextBlock',
    inlines: parts.map((part): TextRun => (typeof part === 'string' ? { type: 'TextRun', text: part } : { type: 'TextRun', text: defang(part.value), fontType: 'Monospace' })),
  };
}

function teamsList(values: readonly string[], more: number): string {
  return values.join(', ') + moreText(more);
}

function teamsScope(scope: MessageScope): CardElement {
  const parts: (string | { value: string })[] = [{ value: scope.key }, ` ${scope.kind} (${ORIGINS[scope.origin]}): ${scope.outcome}`];
  if (scope.added.length > 0) parts.push('\nadded: ', { value: teamsList(scope.added, scope.addedMore) });
  if (scope.removed.length > 0) parts.push('\nremoved: ', { value: teamsList(scope.removed, scope.removedMore) });
  if (scope.reason !== undefined) parts.push('\nwhy: ', { value: scope.reason });
  return rich(...parts);
}

/** The Teams body of a message (exported for the tests' checks against the adaptivecards package). */
export function teamsBody(message: NotifyMessage): TeamsBody {
  const head: CardElement[] = [
    { type: 'TextBlock', text: `autojoin-sync: ${TITLES[message.event]}`, wrap: true, weight: 'Bolder', size: 'Medium' },
    { type: 'TextBlock', text: countsLine(message), wrap: true },
  ];
  const facts: (string | { value: string })[] = [];
  if (message.repository) facts.push('repository ', { value: message.repository }, ' · ');
  facts.push('owner ', { value: message.owner }, ' · service ', { value: message.service });
  if (message.commit) facts.push(' · commit ', { value: message.commit.slice(0, 12) });
  if (message.shard) facts.push(' · shard ', { value: message.shard });
  head.push(rich(...facts));
  if (message.refusal) {
    const parts: (string | { value: string })[] = ['refused by ', { value: message.refusal.check }, ': ', { value: message.refusal.reason }];
    if (message.refusal.override) parts.push('\nto go ahead: ', { value: message.refusal.override });
    head.push(rich(...parts));
  }
  if (message.error !== undefined) head.push(rich('error: ', { value: message.error }));
  // No more scopes than could fit in the card's bytes: a large run's other scopes are only counted.
  const scopes = prefixWithin(message.scopes, teamsScope, TEAMS_MAX_BYTES);
  const build = (count: number): TeamsBody => {
    const body = [...head, ...scopes.slice(0, count)];
    const left = message.scopes.length - count;
    if (left > 0) body.push({ type: 'TextBlock', text: `and ${left} more scope${left === 1 ? '' : 's'} (see the run's report)`, wrap: true, isSubtle: true });
    const card: AdaptiveCard = { $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4', body };
    // The run's URL is the CI's own (GITHUB_SERVER_URL…), not live text: a button may open it.
    if (message.runUrl?.startsWith('https://')) card.actions = [{ type: 'Action.OpenUrl', title: 'Open the run', url: message.runUrl }];
    return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] };
  };
  const count = mostThatFit(scopes.length, (n) => Buffer.byteLength(JSON.stringify(build(n)), 'utf8') <= TEAMS_MAX_BYTES);
  return build(count);
}
