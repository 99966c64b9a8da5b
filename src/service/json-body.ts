/**
 * Turning a response body into a JSON value without trusting it: not JSON, cut short, or
 * nested so deep that later code (JSON.stringify, validation) would overflow the stack, each
 * becomes a one-line reason instead of an exception from deep inside a library.
 */
import { cutText } from '../redact.js';

/** Deeper than any real response of this API; deep enough for free-form metadata. */
export const MAX_JSON_DEPTH = 64;

export type JsonResult = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * @param status the answer's HTTP status, named when the body is not JSON
 * @returns the parsed body, or why it is not acceptable JSON. A body that is not JSON is named by
 *   its status, content type and length, never by the parser's message: that quotes the body's
 *   first characters (`Unexpected token 's', "sk_live_AB"... is not valid JSON`), which may be an
 *   echoed key cut before the redactor could see it whole.
 */
export function parseJsonBody(body: Buffer, contentType: string | undefined, status?: number): JsonResult {
  const text = body.toString('utf8');
  if (!/\S/u.test(text)) return { ok: false, problem: 'the body is empty' };
  if (looksLikeHtml(text, contentType)) return { ok: false, problem: `the body is an HTML page, not JSON (${contentType ?? 'no content-type'})` };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    const what = [...(status === undefined ? [] : [`status ${status}`]), contentType === undefined ? 'no content-type' : cutText(contentType, 100), `${body.length} bytes`];
    return { ok: false, problem: `the body is not valid JSON (${what.join(', ')})` };
  }
  if (mayNestDeeper(text, MAX_JSON_DEPTH) && deeperThan(value, MAX_JSON_DEPTH)) return { ok: false, problem: `the JSON is nested deeper than ${MAX_JSON_DEPTH} levels` };
  return { ok: true, value };
}

function looksLikeHtml(text: string, contentType: string | undefined): boolean {
  return /html/iu.test(contentType ?? '') || /^\s*</u.test(text);
}

/**
 * Whether the text has more than `limit` opening brackets: each object or array of the value
 * starts with one (brackets inside strings only add to the count), so a text with no more cannot
 * nest deeper than `limit`, and the walk of {@link deeperThan} is left out (every ordinary answer).
 */
function mayNestDeeper(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      count += 1;
      if (count > limit) return true;
    }
  }
  return false;
}

/**
 * Whether `value` nests objects and arrays more than `limit` deep. JSON.parse itself does not
 * recurse (V8 parses any depth), so the check runs on the parsed value, several times faster
 * than scanning the text; it walks with its own stack and stops at the first level too deep.
 */
function deeperThan(value: unknown, limit: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const next = values.pop();
    const depth = depths.pop() ?? 0;
    if (typeof next !== 'object' || next === null) continue;
    if (depth > limit) return true;
    const children = Array.isArray(next) ? (next as unknown[]) : Object.values(next);
    for (const child of children) {
      if (typeof child !== 'object' || child === null) continue;
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}
