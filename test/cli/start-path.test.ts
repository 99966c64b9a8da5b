/**
 * `--version` and `--help` must stay cheap: the modules dist/cli.js loads before a command runs
 * (its eager imports and everything they import statically) may not carry the HTTP client, the
 * emulator, ajv or the domain lists. A plain import of a service module from the start path once
 * pulled a 1 MB chunk in and doubled the start-up time; this keeps it out.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH } from '../support/cli.js';

/** Files reached from `file` through static `import … from "./x.js"` (and, from the entry, its top-level `await import()`s). */
function startPath(entry: string): Map<string, number> {
  const seen = new Map<string, number>();
  const visit = (file: string, followDynamic: boolean): void => {
    if (seen.has(file)) return;
    const text = readFileSync(file, 'utf8');
    seen.set(file, text.length);
    const specifiers = [...text.matchAll(/from\s*"(\.[^"]+)"/g)].map((match) => match[1] ?? '');
    if (followDynamic) specifiers.push(...[...text.matchAll(/await import\("(\.[^"]+)"\)/g)].map((match) => match[1] ?? ''));
    for (const specifier of specifiers) visit(join(dirname(file), specifier), false);
  };
  visit(entry, true);
  return seen;
}

describe('the CLI start path', () => {
  it('loads under 300 kB of code, and no HTTP client, emulator, ajv or domain list', () => {
    const files = startPath(CLI_PATH);
    const bytes = [...files.values()].reduce((sum, size) => sum + size, 0);
    expect(bytes).toBeLessThan(300_000);
    const code = [...files.keys()].map((file) => readFileSync(file, 'utf8')).join('\n');
    for (const marker of ['EnvHttpProxyAgent', 'listening on', 'gmail.com', 'allErrors']) expect(code, marker).not.toContain(marker);
  });
});
