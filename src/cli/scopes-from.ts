/**
 * `import --scopes-from FILE` (or `-` for stdin): the scopes to import, one `TYPE/ID` a line
 * (blank lines and lines starting with `#` skipped), or a plan JSON (`plan --format json`,
 * `plan --out`), whose covered scopes are taken.
 */
import { readFile } from 'node:fs/promises';
import { text as readStream } from 'node:stream/consumers';
import { parsePlan } from '../plan/index.js';
import { RunError } from '../run/exit-codes.js';
import { parseScopeKey, type ScopeRef } from '../scope.js';

/** Reads and parses the scope list; `-` reads stdin. Errors name the file and line. */
export async function readScopesFrom(source: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<ScopeRef[]> {
  let text: string;
  try {
    text = source === '-' ? await readStream(stdin) : await readFile(source, 'utf8');
  } catch (error) {
    throw new RunError(`--scopes-from ${source}: ${(error as Error).message}`);
  }
  return parseScopeList(text, source === '-' ? '<stdin>' : source);
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
    return parsePlan(text, name).scopes.map((scope) => parseScopeKey(scope.key));
  } catch (error) {
    throw new RunError(`--scopes-from: ${(error as Error).message}`);
  }
}
