// Bundles the CLI and the GitHub Action into single ESM files under dist/.
// dist/action.js is committed (the runner executes it as is); dist/cli.js is built by `npm ci` (prepare).
import { chmodSync } from 'node:fs';
import { build } from 'esbuild';
import { writeThirdPartyNotices } from './notices.mjs';

const entries = process.argv.slice(2);
const targets = {
  // The npm package ships dist/cli.js with dist/THIRD_PARTY_NOTICES.txt (bundled packages' licences).
  cli: { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: '#!/usr/bin/env node', notices: 'dist/THIRD_PARTY_NOTICES.txt' },
  action: { entryPoints: ['src/action/index.ts'], outfile: 'dist/action.js', banner: '' },
};

for (const name of entries.length ? entries : Object.keys(targets)) {
  const target = targets[name];
  if (!target) throw new Error(`unknown build target ${name}`);
  const result = await build({
    entryPoints: target.entryPoints,
    outfile: target.outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    legalComments: 'none',
    logLevel: 'warning',
    metafile: Boolean(target.notices),
    // Some dependencies are CommonJS and call require(); give the ESM bundle one.
    banner: {
      js: `${target.banner}\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);`.trimStart(),
    },
  });
  if (target.banner) chmodSync(target.outfile, 0o755);
  if (target.notices) writeThirdPartyNotices(result.metafile, target.notices, target.outfile);
}
