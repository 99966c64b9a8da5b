/**
 * The one redactor of the codebase: the service client, the run layer, the CLI and the action
 * pass every text that may carry an echo of a credential through it before it is printed,
 * posted or saved (the output sinks of src/run/output.ts). A server (or a proxy) can echo a key
 * in many shapes, and our own renderers re-encode what it echoed, so each secret is caught as
 * written, in any letter case, JSON-escaped, markdown-escaped (as src/render/escape.ts writes
 * it), URL-encoded, and base64-encoded (standard and URL alphabets, on its own or inside a
 * longer encoded string such as a Basic credential).
 */
import { escapeControls, escapeMarkdown } from './render/escape.js';


/** Replaces every known form of the secrets given with `***`. */
export type Redactor = (text: string) => string;

/** Shortest base64 run of a secret inside a longer encoding that is still replaced; shorter runs would hit ordinary words. */
const MIN_EMBEDDED_RUN = 6;

/**
 * @param secrets the key and token; undefined and empty ones are skipped, any other length counts
 * @returns a function replacing every form of every secret with `***`
 */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const pattern = secretPattern(secrets);
  if (pattern === null) return (text) => text;
  return (text) => text.replace(pattern, '***');
}

/**
 * @param secrets as for {@link createRedactor}
 * @returns a global pattern matching every form of every secret, longest first (what the
 *   redactor replaces; where a policy file holds a secret), or null when there is none
 */
export function secretPattern(secrets: readonly (string | undefined)[]): RegExp | null {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret === '') continue;
    for (const form of secretForms(secret)) forms.add(form);
  }
  if (forms.size === 0) return null;
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(alternatives.join('|'), 'giu');
}

/**
 * @returns the shapes a secret is looked for in (also what the action registers with the
 *   runner's log masking): as written, trimmed, lower and upper case, JSON-, terminal- and
 *   markdown-escaped, URL-encoded, base64 and base64url, and the parts of its base64 that stay
 *   the same at any offset inside a longer encoded string.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret.toLowerCase(), secret.toUpperCase(), encodeURIComponent(secret)]);
  for (const written of [secret, secret.trim()]) {
    // As a renderer writes it: inside a JSON string, escaped for a terminal, escaped for markdown.
    for (const shown of [written, JSON.stringify(written).slice(1, -1)]) {
      forms.add(shown).add(escapeControls(shown)).add(escapeMarkdown(shown));
    }
  }
  const bytes = Buffer.from(secret, 'utf8');
  for (const encoding of ['base64', 'base64url'] as const) {
    // With its padding too, which the longer match takes along (none is left dangling after `***`).
    forms.add(bytes.toString(encoding)).add(bytes.toString(encoding).replace(/=+$/u, ''));
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
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding).replace(/=+$/u, '');
    const first = Math.ceil((8 * offset) / 6);
    const last = Math.floor((8 * (offset + bytes.length)) / 6); // exclusive: the last character may hold bits of what follows
    runs.push(encoded.slice(first, last));
  }
  return runs;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
