/**
 * One context (design.md, "The run context"; issue 46): today, the moment a plan is made and CI
 * detection are fields of the run context, resolved once by src/run/settings.ts; nothing below it
 * (the command layer, the orchestrator, the apply, connecting) reads the clock, the environment
 * or the working directory again.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../support/imports.js';

/** The folders (and files) below the run context. */
const BELOW = [/^commands\//u, /^reconcile\//u, /^apply\//u, /^connect\/connect\.ts$/u];

/** What reads the clock, the environment or the working directory. */
const READS = [/\bprocess\.env\b/u, /\bprocess\.cwd\(/u, /\bnew Date\(\)/u, /\bDate\.now\(/u, /\btoday\(\)/u, /\bplanMoment\(\)/u];

/** @returns one line per read of the clock, the environment or the working directory in `text` (comments left out) */
export function contextReads(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//gu, '').replace(/(^|[^:])\/\/.*$/gmu, '$1');
  return code.split('\n').flatMap((line, index) => (READS.some((read) => read.test(line)) ? [`src/${file}:${index + 1}: ${line.trim()}`] : []));
}

describe('one context', () => {
  it('names a read of the clock, the environment or the working directory (the check can fail)', () => {
    expect(contextReads('reconcile/x.ts', 'const day = today();\n// today() in a comment\nconst at = new Date(settings.now);')).toEqual(['src/reconcile/x.ts:1: const day = today();']);
    expect(contextReads('commands/y.ts', 'const ci = process.env.CI;')).toHaveLength(1);
  });

  it('nothing below the run context reads the clock, the environment or the working directory', async () => {
    const files = (await sourceFiles(SRC)).map((file) => path.relative(SRC, file).split(path.sep).join('/')).filter((file) => BELOW.some((below) => below.test(file)));
    expect(files.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const file of files) found.push(...contextReads(file, await readFile(path.join(SRC, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
