/**
 * The relative imports of src/, read as text: every `import … from`, `export … from` and `import()`
 * of a `.js` specifier, as paths relative to src/. Shared by the import-graph and layer tests.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** @returns every `.ts` file under `dir`, as absolute paths */
export async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : Promise.resolve(entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : []))));
  return nested.flat();
}

/** @returns the src/ modules a file imports, as paths relative to `src` */
export function importsOf(file: string, text: string, src = SRC): string[] {
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/gu)].map((match) => match[1] ?? match[2] ?? '');
  return specifiers
    .filter((specifier) => specifier.endsWith('.js'))
    .map((specifier) => path.relative(src, path.resolve(path.dirname(file), specifier.replace(/\.js$/u, '.ts'))));
}
