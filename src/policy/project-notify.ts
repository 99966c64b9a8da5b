/**
 * The `notify:` of the project file, checked when the file is loaded, each problem at its place:
 * a URL or a secret is never written in the file (only the name of an `AUTOJOIN_NOTIFY_*`
 * variable), a webhook is always signed (`secretEnv`), only a webhook has a secret, and one
 * variable names one kind of target. The values are checked at run time (src/notify/targets.ts).
 */
import { diagnosticAt } from './format.js';
import { locate } from './locate.js';
import type { ParsedDocument } from './parse.js';
import type { Diagnostic, SourcePos } from './types.js';

/** Keys someone might write a URL or secret under. */
const LITERAL_KEYS = ['url', 'webhookUrl', 'webhook_url', 'secret', 'token'];

/**
 * @param parsed the project file's document
 * @returns its notify problems; `covered` holds the places whose schema error these replace
 */
export function notifyDiagnostics(parsed: ParsedDocument): { diagnostics: Diagnostic[]; covered: Set<string> } {
  const diagnostics: Diagnostic[] = [];
  const covered = new Set<string>();
  const notify: unknown = parsed.data.notify;
  if (!Array.isArray(notify)) return { diagnostics, covered };
  const kinds = new Map<string, string>();
  notify.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return;
    const item = entry as Record<string, unknown>;
    const add = (path: (string | number)[], code: string, message: string, part: 'key' | 'value' = 'value'): void => {
      const at = locate(parsed, ['notify', index, ...path], part);
      covered.add(placeKey(at));
      diagnostics.push(diagnosticAt(at, 'error', code, message));
    };
    for (const [key, value] of Object.entries(item)) {
      const named = key === 'urlEnv' || key === 'secretEnv';
      if (named ? !looksLikeValue(value) : !LITERAL_KEYS.includes(key)) continue;
      const wanted = key === 'urlEnv' || key.toLowerCase().includes('url') ? 'urlEnv' : 'secretEnv';
      // The value is never repeated: it is a secret. The schema's error at its key is replaced.
      covered.add(placeKey(locate(parsed, ['notify', index, key], 'key')));
      add([key], 'notify-literal-secret', `notify[${index}].${key}: a URL or secret is never written in the project file; put it in an environment variable named AUTOJOIN_NOTIFY_… and give that name as ${wanted}`, named ? 'value' : 'key');
    }
    if (item.to === 'webhook' && item.secretEnv === undefined) {
      add([], 'notify-unsigned', `notify[${index}]: a webhook target needs secretEnv (an AUTOJOIN_NOTIFY_* variable holding at least 32 bytes): its bodies are always signed`);
    }
    if (item.to !== 'webhook' && typeof item.to === 'string' && item.secretEnv !== undefined) {
      add(['secretEnv'], 'notify-secret-unused', `notify[${index}].secretEnv: only a webhook target is signed; ${item.to} has no secret`, 'key');
    }
    if (typeof item.urlEnv === 'string' && typeof item.to === 'string') {
      const before = kinds.get(item.urlEnv);
      if (before !== undefined && before !== item.to) add(['urlEnv'], 'notify-one-kind', `notify[${index}].urlEnv: ${item.urlEnv} is already a ${before} target; one URL gets one kind of message`);
      else kinds.set(item.urlEnv, item.to);
    }
  });
  return { diagnostics, covered };
}

/** A value rather than a variable's name: a URL, or anything that is not a plain name. */
function looksLikeValue(value: unknown): boolean {
  return typeof value === 'string' && (value.includes('://') || value.length >= 32 || /[^A-Za-z0-9_]/u.test(value));
}

/** One place as text, to match a schema diagnostic at the same place. */
export function placeKey(at: SourcePos): string {
  return `${at.file}:${at.line}:${at.column}`;
}
