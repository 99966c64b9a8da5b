// The release's SBOM (CycloneDX 1.6 JSON): the npm packages the shipped bundles contain, with
// their versions and licences. The package declares no dependencies (esbuild bundles them all), so
// `npm sbom --omit dev` lists nothing and the full tree lists the dev tools; the bundler's own record
// of its inputs is the truth. `npm run build` writes that record for each bundle to dist/meta/NAME.json
// (scripts/build.mjs); this script reads them. Two bundles ship: `cli` (the npm package's dist/cli.js
// and dist/chunks/, metafiles cli-*.json) and `action` (dist/action.js, the file runners execute).
//
//   node scripts/sbom.mjs [--out FILE]      (after `npm run build`; without --out, to stdout)
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageDirs, readManifest } from './bundled-packages.mjs';
import { META_DIR } from './build.mjs';

export const SPEC_VERSION = '1.6';
/** The property of a component naming the bundles it is in (`cli`, `action`). */
export const BUNDLE_PROPERTY = 'autojoin-sync:bundle';

/**
 * The CycloneDX document for the bundles described by `metafiles`.
 * @param {{ meta: string, metafile: import('esbuild').Metafile }[]} metafiles meta: the metafile's
 *   name (cli-chunks, cli-entry, action); the bundle is the part before the first `-`
 * @param {{ root?: string, timestamp?: string, serialNumber?: string }} [options] root: the folder the
 *   build ran in (the metafile's paths are relative to it)
 */
export function cycloneDx(metafiles, { root = '.', timestamp = new Date().toISOString(), serialNumber = `urn:uuid:${randomUUID()}` } = {}) {
  const byRef = new Map();
  for (const { meta, metafile } of metafiles) {
    const bundle = meta.split('-')[0];
    for (const dir of packageDirs(metafile, { emitted: true })) {
      const component = componentOf(readManifest(join(root, dir)), 'library');
      const seen = byRef.get(component['bom-ref']) ?? { ...component, bundles: new Set() };
      seen.bundles.add(bundle);
      byRef.set(component['bom-ref'], seen);
    }
  }
  const components = [...byRef.values()]
    .map(({ bundles, ...component }) => ({ ...component, properties: [...bundles].sort().map((value) => ({ name: BUNDLE_PROPERTY, value })) }))
    .sort((a, b) => (a['bom-ref'] < b['bom-ref'] ? -1 : 1));
  const project = readManifest(root);
  const subject = componentOf(project, 'application');
  const esbuild = readManifest(join(root, 'node_modules/esbuild'));
  return {
    $schema: `http://cyclonedx.org/schema/bom-${SPEC_VERSION}.schema.json`,
    bomFormat: 'CycloneDX',
    specVersion: SPEC_VERSION,
    serialNumber,
    version: 1,
    metadata: {
      timestamp,
      tools: { components: [{ type: 'application', name: 'esbuild', version: esbuild.version, description: 'the bundler; its metafiles list the inputs' }] },
      component: { ...subject, ...vcsOf(project) },
    },
    components,
    dependencies: [
      { ref: subject['bom-ref'], dependsOn: components.map((component) => component['bom-ref']) },
      ...components.map((component) => ({ ref: component['bom-ref'], dependsOn: [] })),
    ],
  };
}

/** A package as a CycloneDX component: a scope is the group, the purl names the npm package. */
function componentOf(pkg, type) {
  const [group, name] = pkg.name.startsWith('@') ? pkg.name.split('/') : [undefined, pkg.name];
  const purl = `pkg:npm/${pkg.name.replace(/^@/u, '%40')}@${pkg.version}`;
  const licenses = licensesOf(pkg.license);
  return { type, 'bom-ref': purl, ...(group ? { group } : {}), name, version: pkg.version, purl, ...(licenses ? { licenses } : {}) };
}

/** package.json's `license`: an SPDX id, an SPDX expression, or a text (e.g. "SEE LICENSE IN …"). */
function licensesOf(license) {
  if (typeof license !== 'string' || license === '') return undefined;
  if (/^[A-Za-z0-9.+-]+$/u.test(license)) return [{ license: { id: license } }];
  if (/^SEE LICEN[CS]E IN /iu.test(license)) return [{ license: { name: license } }];
  return [{ expression: license }];
}

function vcsOf(pkg) {
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  return url ? { externalReferences: [{ type: 'vcs', url: url.replace(/^git\+/u, '') }] } : {};
}

/** The metafiles the last build wrote (dist/meta/*.json). */
export function readMetafiles(root = '.') {
  const dir = join(root, META_DIR);
  let names;
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  } catch {
    names = [];
  }
  if (names.length === 0) throw new Error(`${dir}/ holds no metafile: run \`npm run build\` first`);
  return names.map((name) => ({ meta: name.replace(/\.json$/u, ''), metafile: JSON.parse(readFileSync(join(dir, name), 'utf8')) }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const out = args[0] === '--out' ? args[1] : undefined;
  if (args.length > 0 && !out) throw new Error('usage: node scripts/sbom.mjs [--out FILE]');
  const epoch = process.env.SOURCE_DATE_EPOCH;
  const document = cycloneDx(readMetafiles(), epoch ? { timestamp: new Date(Number(epoch) * 1000).toISOString() } : {});
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
}
