/**
 * The one redactor of the codebase: the service client, the run layer, the CLI and the action
 * pass every text that may carry an echo of a credential through it before it is printed,
 * posted or saved (the output sinks of src/output/sinks.ts). A server (or a proxy) can echo a key
 * in many shapes, and our own renderers re-encode what it echoed, so each secret is caught as
 * written, in any letter case, JSON-escaped, markdown-escaped (as src/escape.ts writes
 * it), URL-encoded (as encodeURIComponent writes it, or every character), hex-encoded, split by
 * zero-width characters, and base64-encoded (standard and URL alphabets, on its own or inside a
 * longer encoded string such as a Basic credential).
 *
 * Redaction runs on whole values, before any cut: a value shortened for display goes through
 * {@link cutText}, which redacts the whole value first; a text that was never whole (a capped
 * stream such as git's stderr) goes through {@link scrubCutEdges}, which also hides any prefix
 * or suffix of four or more characters of a known form at the cut.
 */
import { escapeControls, escapeMarkdown } from './escape.js';
import { bindRunValue, runValue, type RunBinding } from './run-values.js';

/** Replaces every known form of the secrets given with `***`. */
export type Redactor = (text: string) => string;

/** Characters that render as nothing; a secret split by them still reads as the secret. */
const ZERO_WIDTH = '\\u00AD\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u2069\\uFEFF';
/** One invisible character, raw or as the renderers escape it (`\\u{200b}`, `\\xad`, JSON's `\\u200b`, markdown's `&#92;u{200b}`). */
const INVISIBLE = `(?:[${ZERO_WIDTH}]|(?:\\\\|&#92;)(?:u\\{[0-9a-f]{1,6}\\}|x[0-9a-f]{2}|u[0-9a-f]{4}))`;
const HAS_ZERO_WIDTH = new RegExp(INVISIBLE, 'iu');
const INVISIBLE_ALL = new RegExp(INVISIBLE, 'giu');
/** Shortest part of a secret's form, at a cut, that is still hidden (shorter ones would hit ordinary words). */
export const MIN_CUT_PART = 4;

/** Shortest base64 run of a secret inside a longer encoding that is still replaced; shorter runs would hit ordinary words. */
const MIN_EMBEDDED_RUN = 6;

/**
 * @param secrets the key and token; undefined and empty ones are skipped, any other length counts
 * @returns a function replacing every form of every secret with `***`
 */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const forms = allForms(secrets);
  if (forms.length === 0) return (text) => text;
  // Hex and percent-encoded forms go in a pattern of their own: mixed into the others' alternation
  // they cost the scan its fast path (a fourfold slowdown on a large plan).
  // Neither list is ever empty: every secret has a hex form, and a base64 form outside [0-9a-f%].
  const encoded = forms.filter((form) => ENCODED_FORM.test(form));
  // Stryker disable next-line MethodExpression: the encoded forms are all replaced by the first pattern; matching them again finds none
  const plain = forms.filter((form) => !ENCODED_FORM.test(form));
  const patterns = [encoded, plain].map((list) => new RegExp(list.map(escapeRegExp).join('|'), 'giu'));
  const replaceAll = (text: string): string => patterns.reduce((result, pattern) => result.replace(pattern, '***'), text);
  let split: RegExp | undefined; // built on the first text that holds a secret split by invisible characters
  return (text) => {
    const replaced = replaceAll(text);
    if (!HAS_ZERO_WIDTH.test(replaced)) return replaced;
    // The slow pattern only runs where the text, invisible characters dropped, holds a secret.
    const visible = replaced.replace(INVISIBLE_ALL, '');
    if (replaceAll(visible) === visible) return replaced;
    split ??= splitPattern(secrets);
    return replaced.replace(split, '***');
  };
}

/** Hex (`736b5f…`) and byte-by-byte percent-encoded (`%73%6B…`) forms. */
const ENCODED_FORM = /^(?:[0-9a-f]+|(?:%[0-9a-f]{2})+)$/iu;

/** @returns a pattern matching every form of every secret with zero-width characters anywhere inside it. */
function splitPattern(secrets: readonly (string | undefined)[]): RegExp {
  const between = `${INVISIBLE}*`;
  const alternatives = allForms(secrets).map((form) => Array.from(form, escapeRegExp).join(between));
  return new RegExp(alternatives.join('|'), 'giu');
}

function allForms(secrets: readonly (string | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined) continue; // '' has no form: secretForms('') is empty
    for (const form of secretForms(secret)) forms.add(form);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** A run's secrets as the redactor uses them: the values, their redactor, their forms in lower case (to scrub at a cut). */
interface RunSecrets {
  readonly values: readonly string[];
  readonly redactor: Redactor;
  readonly forms: readonly string[];
}

const NO_SECRETS: RunSecrets = { values: [], redactor: (text) => text, forms: [] };

/**
 * The current run's secrets (src/run-values.ts): named by the front end as it enters the run
 * (src/output/run-scope.ts); every output passes {@link redactText}. None outside a run until set.
 */
const runSecrets = runValue<RunSecrets>(NO_SECRETS);

function compiled(secrets: readonly (string | undefined)[]): RunSecrets {
  const values = [...new Set(secrets.filter((value): value is string => value !== undefined && value.trim() !== ''))];
  return { values, redactor: createRedactor(values), forms: allForms(values).map((form) => form.toLowerCase()) };
}

/** Names the current run's secrets (undefined and blank values are skipped); outside a run, the process default. */
export function setRunSecrets(secrets: readonly (string | undefined)[]): void {
  runSecrets.set(compiled(secrets));
}

/** @returns the binding of a nested run's secrets: the enclosing run's and `secrets` (a run never hides fewer). */
export function runSecretsBinding(secrets: readonly (string | undefined)[]): RunBinding {
  return bindRunValue(runSecrets, compiled([...runSecrets.get().values, ...secrets]));
}

/** @returns whether the current run has any secret to hide */
export function hasRunSecrets(): boolean {
  return runSecrets.get().values.length > 0;
}

/** @returns `text` with every form of every secret of the run replaced by `***`. */
export function redactText(text: string): string {
  return runSecrets.get().redactor(text);
}

/**
 * @returns `value` redacted whole, then cut to at most `max` characters (the last ones `mark`,
 *   `…` unless given); what remains at the cut that starts a form of a secret is hidden too.
 *   Every shortening of a text for display goes through here.
 */
export function cutText(value: string, max: number, mark = '…'): string {
  const redacted = redactText(value);
  if (redacted.length <= max) return redacted;
  return `${scrubCutEdges(redacted.slice(0, Math.max(0, max - mark.length)), { end: true })}${mark}`;
}

/**
 * @returns `value` redacted whole, then cut (as {@link cutText}) to at most `maxBytes` bytes of
 *   UTF-8: for a channel whose limit is in bytes (a job summary holds 1 MiB), where a character
 *   can take up to four.
 */
export function cutTextBytes(value: string, maxBytes: number, mark = '…'): string {
  const redacted = redactText(value);
  if (Buffer.byteLength(redacted) <= maxBytes) return redacted;
  // The most characters whose cut fits: a character takes one to three bytes (four for a pair of two).
  let low = 0;
  let high = Math.min(redacted.length, maxBytes);
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (Buffer.byteLength(cutText(redacted, middle, mark)) <= maxBytes) low = middle;
    else high = middle - 1;
  }
  return low === 0 ? '' : cutText(redacted, low, mark);
}

/** Longest live value (an owner, a metadata value) shown for display; plan documents keep it whole. */
export const LIVE_VALUE_CHARS = 200;

/** @returns a live value as shown: redacted whole, then cut to {@link LIVE_VALUE_CHARS}. */
export function shownLive(value: string): string {
  return cutText(value, LIVE_VALUE_CHARS);
}

/**
 * @returns a commit as shown (`1a2b3c4d5e6f`): its first 12 characters, as git abbreviates, cut
 *   through {@link cutText} (a marker's commit is live data: a key echoed there is redacted whole first)
 */
export function shortCommit(commit: string): string {
  return cutText(commit, 12, '');
}

/**
 * For a text cut out of a longer one it never saw whole (a capped stream): hides a prefix of a
 * form of a secret (at least {@link MIN_CUT_PART} characters) that ends the text when it was cut
 * at its end, and a suffix of one that starts it when it was cut at its start, then redacts it.
 */
export function scrubCutEdges(text: string, cut: { start?: boolean; end?: boolean }): string {
  let result = redactText(text);
  const runForms = runSecrets.get().forms;
  const lower = result.toLowerCase();
  if (cut.end) {
    const part = longestPart(runForms, (length, form) => lower.endsWith(form.slice(0, length)), lower.length);
    if (part > 0) result = `${result.slice(0, result.length - part)}***`;
  }
  if (cut.start) {
    const part = longestPart(runForms, (length, form) => lower.startsWith(form.slice(form.length - length)), lower.length);
    if (part > 0) result = `***${result.slice(part)}`;
  }
  return result;
}

/** @returns the longest length (≥ MIN_CUT_PART, shorter than the form) for which `matches` holds, or 0. */
function longestPart(forms: readonly string[], matches: (length: number, form: string) => boolean, available: number): number {
  let best = 0;
  for (const form of forms) {
    for (let length = Math.min(form.length - 1, available); length >= MIN_CUT_PART && length > best; length -= 1) {
      if (matches(length, form)) best = length;
    }
  }
  return best;
}

/**
 * @param secrets as for {@link createRedactor}
 * @returns a global pattern matching every form of every secret, longest first (what the
 *   redactor replaces; where a policy file holds a secret), or null when there is none
 */
export function secretPattern(secrets: readonly (string | undefined)[]): RegExp | null {
  const forms = allForms(secrets);
  if (forms.length === 0) return null;
  return new RegExp(forms.map(escapeRegExp).join('|'), 'giu');
}

/**
 * @returns the shapes a secret is looked for in (also what the action registers with the
 *   runner's log masking): as written, trimmed, lower and upper case, JSON-, terminal- and
 *   markdown-escaped, URL-encoded (as encodeURIComponent does, and every byte), hex, base64 and
 *   base64url, and the parts of its base64 that stay the same at any offset inside a longer
 *   encoded string.
 */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const hex = bytes.toString('hex');
  const everyByte = hex.replace(/../gu, (pair) => `%${pair.toUpperCase()}`);
  const forms = new Set<string>([secret.toLowerCase(), secret.toUpperCase(), encodeURIComponent(secret), hex, everyByte]);
  for (const written of [secret, secret.trim()]) {
    // As a renderer writes it: inside a JSON string, escaped for a terminal, escaped for markdown.
    for (const shown of [written, JSON.stringify(written).slice(1, -1)]) {
      forms.add(shown).add(escapeControls(shown)).add(escapeMarkdown(shown));
    }
  }
  for (const encoding of ['base64', 'base64url'] as const) {
    // With its padding too, which the longer match takes along (none is left dangling after `***`).
    forms.add(bytes.toString(encoding)).add(bytes.toString(encoding).replaceAll('=', ''));
    for (const run of embeddedRuns(bytes, encoding)) if (run.length >= MIN_EMBEDDED_RUN) forms.add(run);
  }
  forms.delete('');
  return [...forms];
}

/**
 * base64 turns 3 bytes into 4 characters, so how a secret encodes inside a longer string
 * depends on its offset modulo 3. For each offset, @returns the characters that depend on the
 * secret's bytes alone.
 */
function embeddedRuns(bytes: Buffer, encoding: 'base64' | 'base64url'): string[] {
  const runs: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding); // its padding is past `last`
    const first = Math.ceil((8 * offset) / 6);
    const last = Math.floor((8 * (offset + bytes.length)) / 6); // exclusive: the last character may hold bits of what follows
    runs.push(encoded.slice(first, last));
  }
  return runs;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
