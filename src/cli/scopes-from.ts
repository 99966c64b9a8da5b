/**
 * `import --scopes-from FILE` (or `-` for stdin): the scopes to import, one `TYPE/ID` a line
 * (blank lines and lines starting with `#` skipped), or a plan JSON (`plan --format json`,
 * `plan --out`), whose covered scopes are taken.
 */
import { createReadStream } from 'node:fs';
import { MAX_PLAN_BYTES, planScopeKeys } from '../commands/plan-files.js';
import { RunError } from '../output/exit-codes.js';
import { parseScopeKey, type ScopeRef } from '../scope.js';

/**
 * Reads and parses the scope list; `-` reads stdin. Errors name the file and line. At most the
 * size of a saved plan is read (`/dev/zero`, or a pipe that never ends, stops there with an error).
 */
export async function readScopesFrom(source: string, stdin: NodeJS.ReadableStream = process.stdin, maxBytes = MAX_PLAN_BYTES): Promise<ScopeRef[]> {
  let text: string;
  try {
    text = await readCapped(source === '-' ? stdin : createReadStream(source), maxBytes);
  } catch (error) {
    throw new RunError(`--scopes-from ${source}: ${(error as Error).message}`);
  }
  return parseScopeList(text, source === '-' ? '<stdin>' : source);
}

/** @returns the stream's text; rejects once it passed `maxBytes`, and stops reading it. */
async function readCapped(stream: NodeJS.ReadableStream, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > maxBytes) {
      (stream as Partial<{ destroy: () => void }>).destroy?.();
      throw new Error(`more than ${maxBytes} bytes: a scope list (or a saved plan) is never that long`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a scope list or a plan JSON (pure). @throws RunError naming `name` and the line. */
export function parseScopeList(text: string, name: string): ScopeRef[] {
  if (text.trimStart().startsWith('{')) return planScopes(text, name);
  const refs: ScopeRef[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    try {
      refs.push(parseScopeKey(line));
    } catch (error) {
      throw new RunError(`${name}:${index + 1}: ${(error as Error).message}`);
    }
  }
  return refs;
}

function planScopes(text: string, name: string): ScopeRef[] {
  try {
    return planScopeKeys(text, name).map((key) => parseScopeKey(key));
  } catch (error) {
    throw new RunError(`--scopes-from: ${(error as Error).message}`);
  }
}
