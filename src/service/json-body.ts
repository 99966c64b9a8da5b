/**
 * Turning a response body into a JSON value without trusting it: not JSON, cut short, or
 * nested so deep that later code (JSON.stringify, validation) would overflow the stack, each
 * becomes a one-line reason instead of an exception from deep inside a library.
 */

/** Deeper than any real response of this API; deep enough for free-form metadata. */
export const MAX_JSON_DEPTH = 64;

export type JsonResult = { ok: true; value: unknown } | { ok: false; problem: string };

/** @returns the parsed body, or why it is not acceptable JSON. */
export function parseJsonBody(body: Buffer, contentType: string | undefined): JsonResult {
  const text = body.toString('utf8');
  if (text.trim() === '') return { ok: false, problem: 'the body is empty' };
  if (looksLikeHtml(text, contentType)) return { ok: false, problem: `the body is an HTML page, not JSON (${contentType ?? 'no content-type'})` };
  const depth = nestingDepth(text);
  if (depth > MAX_JSON_DEPTH) return { ok: false, problem: `the JSON is nested deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `the body is not valid JSON (${reason.split('\n')[0]})` };
  }
}

function looksLikeHtml(text: string, contentType: string | undefined): boolean {
  return /html/iu.test(contentType ?? '') || /^\s*</u.test(text);
}

/** Maximum bracket depth outside strings; a linear scan that never recurses. */
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c /* \ */) i++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b /* { */ || char === 0x5b /* [ */) max = Math.max(max, ++depth);
    else if (char === 0x7d /* } */ || char === 0x5d /* ] */) depth--;
  }
  return max;
}
