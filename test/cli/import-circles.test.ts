/**
 * The command tree (src/cli/program.ts) loads each command module; no command module imports
 * the tree back, statically or with import(): what one needs of it (completion: every command's
 * flags) is handed to its register function.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const COMMANDS = fileURLToPath(new URL('../../src/cli/commands/', import.meta.url));

describe('src/cli import circles', () => {
  it('no command module imports src/cli/program.ts (completion.ts once did, with import())', async () => {
    const importers: string[] = [];
    for (const name of (await readdir(COMMANDS)).filter((file) => file.endsWith('.ts'))) {
      const text = await readFile(`${COMMANDS}${name}`, 'utf8');
      if (/(?:from\s+|import\s*\(\s*)['"]\.\.\/program\.js['"]/u.test(text)) importers.push(name);
    }
    expect(importers).toEqual([]);
  });
});
