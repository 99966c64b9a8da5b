// Bundles the CLI and the GitHub Action as ESM under dist/.
// dist/action.js is one file, committed (the runner executes it as is). The CLI is built by
// `npm ci` (prepare) as an entry dist/cli.js plus chunks under dist/chunks/: its commands load
// lazily (src/cli/program.ts), so `--version` and `--help` read only the entry and a small chunk.
// The npm package ships the CLI with dist/THIRD_PARTY_NOTICES.txt (the bundled packages' licences).
import { chmodSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { writeThirdPartyNotices } from './notices.mjs';

const entries = process.argv.slice(2);
const targets = {
  cli: {
    // The hashbang comes from src/cli/main.ts (esbuild keeps an entry's hashbang first).
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    clean: 'dist/chunks',
    executable: 'dist/cli.js',
    notices: 'dist/THIRD_PARTY_NOTICES.txt',
  },
  action: { entryPoints: ['src/action/index.ts'], outfile: 'dist/action.js' },
};

for (const name of entries.length ? entries : Object.keys(targets)) {
  const target = targets[name];
  if (!target) throw new Error(`unknown build target ${name}`);
  const { clean, executable, notices, ...options } = target;
  if (clean) rmSync(clean, { recursive: true, force: true });
  const result = await build({
    ...options,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: Boolean(notices),
    // Some dependencies are CommonJS and call require(); give every ESM output file one.
    banner: {
      js: `import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);`,
    },
  });
  if (executable) chmodSync(executable, 0o755);
  if (notices) writeThirdPartyNotices(result.metafile, notices, executable);
}
