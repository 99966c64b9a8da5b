// The npm packages esbuild put into a bundle, read from the bundle's metafile (esbuild's record of
// its inputs): one home for scripts/notices.mjs (the licences shipped beside the CLI) and
// scripts/sbom.mjs (the release's SBOM).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A package's folder in an input's path: the innermost node_modules/NAME (a nested copy is a package of its own). */
const PACKAGE_DIR = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//;

/**
 * The folders of the npm packages among a bundle's inputs, sorted.
 * @param {import('esbuild').Metafile} metafile
 * @param {{ emitted?: boolean }} [options] emitted: only packages some bytes of which are in an output
 *   (an import that tree shaking removed whole is not in the bundle)
 * @returns {string[]} paths as the metafile has them (relative to the build's working directory)
 */
export function packageDirs(metafile, { emitted = false } = {}) {
  const inputs = emitted
    ? Object.values(metafile.outputs).flatMap((output) =>
        Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path),
      )
    : Object.keys(metafile.inputs);
  const dirs = new Set();
  for (const input of inputs) {
    const match = PACKAGE_DIR.exec(input);
    if (match) dirs.add(match[1]);
  }
  return [...dirs].sort();
}

/**
 * A package's package.json.
 * @param {string} dir
 * @returns {{ name: string, version: string, license?: unknown, repository?: unknown }}
 */
export function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}
