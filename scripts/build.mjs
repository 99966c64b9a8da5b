// Bundles the CLI and the GitHub Action as ESM under dist/.
// dist/action.js is one file, committed (the runner executes it as is). The CLI is built by
// `npm ci` (prepare) as an entry dist/cli.js and the program under dist/chunks/ (dispatch.js and the
// chunks it loads; commands load lazily, src/cli/program.ts). The entry is one file of its own that
// imports ./chunks/dispatch.js only when it must: `--version`, `--help` and a bare call it answers alone
// from the texts the program printed for them when the build ran it (src/cli/fast-path.ts), so the
// entry is built twice: once without those texts, run, and again with them embedded.
// Bundles take only the version from package.json, not the whole file.
// The npm package ships the CLI with dist/THIRD_PARTY_NOTICES.txt (the bundled packages' licences).
// Each bundle's esbuild metafile (its record of every input) goes to dist/meta/NAME.json, not shipped:
// scripts/sbom.mjs reads them for the release's SBOM.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { writeThirdPartyNotices } from './notices.mjs';
import { writeValidators } from './schema-validators.mjs';

/** Where each bundle's metafile goes (dist/meta/NAME.json): scripts/sbom.mjs reads the folder. */
export const META_DIR = 'dist/meta';

/** The keys of a target that are this script's, not esbuild's. */
const OWN_KEYS = new Set(['clean', 'executable', 'notices', 'meta', 'prebuild', 'plugins']);

/** The bundles, by target name (`node scripts/build.mjs [TARGET…]`); `meta` names each one's metafile. */
export const targets = {
  cli: [
    {
      // policy-loader.js: the policy loader's worker thread (src/policy/load-worker.ts starts it from beside its own chunk).
      entryPoints: { dispatch: 'src/cli/dispatch.ts', 'policy-loader': 'src/policy/load-worker-main.ts' },
      outdir: 'dist/chunks',
      splitting: true,
      chunkNames: '[name]-[hash]',
      minify: true,
      clean: 'dist/chunks',
      meta: 'cli-chunks',
      notices: { file: 'dist/THIRD_PARTY_NOTICES.txt', bundle: 'dist/cli.js' },
    },
    {
      // The hashbang comes from src/cli/main.ts (esbuild keeps an entry's hashbang first).
      entryPoints: { cli: 'src/cli/main.ts' },
      outdir: 'dist',
      minify: true,
      executable: 'dist/cli.js',
      meta: 'cli-entry',
      prebuild: 'AUTOJOIN_PREBUILT',
      plugins: [programFromChunks()],
    },
  ],
  action: [{ entryPoints: ['src/action/index.ts'], outfile: 'dist/action.js', meta: 'action' }],
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const entries = process.argv.slice(2);
  // The JSON Schema validators are compiled here, not at run time (src/generated/, committed).
  for (const file of writeValidators()) console.log(`regenerated ${file}`);
  for (const name of entries.length ? entries : Object.keys(targets)) {
    const target = targets[name];
    if (!target) throw new Error(`unknown build target ${name}`);
    for (const { prebuild, ...options } of target) {
      if (!prebuild) {
        await bundle(options, {});
        continue;
      }
      await bundle(options, { [prebuild]: 'undefined' });
      // A string literal is inlined where it is used (an object would become a shared variable).
      await bundle(options, { [prebuild]: JSON.stringify(JSON.stringify(capturePrebuiltAnswers(options.executable))) });
    }
  }
}

/** Bundles one target with `define` (global name → JavaScript expression) and writes its extras. */
async function bundle(target, define) {
  const { clean, executable, notices, meta } = target;
  if (clean) rmSync(clean, { recursive: true, force: true });
  const result = await build(esbuildOptions(target, define));
  if (executable) chmodSync(executable, 0o755);
  if (notices) writeThirdPartyNotices(result.metafile, notices.file, notices.bundle);
  mkdirSync(META_DIR, { recursive: true });
  writeFileSync(`${META_DIR}/${meta}.json`, `${JSON.stringify(result.metafile, null, 1)}\n`);
}

/**
 * Each bundle's metafile as the build would write it, from bundling in memory (nothing written):
 * the fast tests' view of what the bundles contain. The CLI entry is bundled without its prebuilt answers (same inputs).
 * @returns {Promise<{ meta: string, metafile: import('esbuild').Metafile }[]>}
 */
export async function metafiles() {
  const all = [];
  for (const target of Object.values(targets)) {
    for (const options of target) {
      const define = options.prebuild ? { [options.prebuild]: 'undefined' } : {};
      const { metafile } = await build({ ...esbuildOptions(options, define), write: false, logLevel: 'error' });
      all.push({ meta: options.meta, metafile });
    }
  }
  return all;
}

/**
 * esbuild's options for one target of {@link targets} (its own keys removed), with its metafile.
 * @param {Record<string, unknown>} target
 * @param {Record<string, string>} define global name → JavaScript expression
 */
export function esbuildOptions(target, define) {
  const options = Object.fromEntries(Object.entries(target).filter(([key]) => !OWN_KEYS.has(key)));
  return {
    ...options,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    define,
    plugins: [...(target.plugins ?? []), packageVersionOnly()],
    // Some dependencies are CommonJS and call require(); give every ESM output file one.
    banner: {
      js: `import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);`,
    },
  };
}

/**
 * Runs the CLI just built (without prebuilt answers, so commander answers) with its output piped,
 * as commander then renders help at its default width of 80 columns.
 * @returns the answers of src/cli/fast-path.ts (PrebuiltAnswers), byte for byte
 */
function capturePrebuiltAnswers(cli) {
  const run = (args, status) => {
    const env = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };
    const result = spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
    if (result.status !== status) throw new Error(`node ${cli} ${args.join(' ')} exited ${result.status} (expected ${status}): ${result.stderr}`);
    return result;
  };
  return { version: run(['--version'], 0).stdout, help: run(['--help'], 0).stdout, usage: run([], 1).stderr };
}

/** Resolves the project's package.json (src/version.ts imports it) to a module holding only its `version`. */
function packageVersionOnly() {
  const file = fileURLToPath(new URL('../package.json', import.meta.url));
  return {
    name: 'package-version-only',
    setup(builder) {
      builder.onLoad({ filter: /[\\/]package\.json$/ }, ({ path }) =>
        path === file ? { contents: JSON.stringify({ version: JSON.parse(readFileSync(file, 'utf8')).version }), loader: 'json' } : undefined,
      );
    },
  };
}

/** Keeps the entry's `import('./dispatch.js')` out of its bundle, as the program built beside it: ./chunks/dispatch.js. */
function programFromChunks() {
  return {
    name: 'program-from-chunks',
    setup(builder) {
      builder.onResolve({ filter: /^\.\/dispatch\.js$/ }, () => ({ path: './chunks/dispatch.js', external: true }));
    },
  };
}
