/**
 * The release's SBOM (scripts/sbom.mjs) lists what the shipped bundles contain, read from esbuild's
 * own record of its inputs: exactly the bundled npm packages, by name, version and licence, and no
 * dev tool. The bundles are built in memory here (scripts/build.mjs `metafiles()`, nothing written).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { metafiles } from '../../scripts/build.mjs';
import { BUNDLE_PROPERTY, cycloneDx, type CycloneDx } from '../../scripts/sbom.mjs';
import { REPO_ROOT } from '../action/support/run-action.js';

/**
 * What the bundles contain today, by package and bundle (cli: the npm package; action: dist/action.js).
 * A new bundled dependency belongs here once someone has looked at it. picocolors is imported on the
 * action's side too but tree-shaken away whole there, so it is in the CLI only.
 */
const BUNDLED: Record<string, string[]> = {
  '@actions/core': ['action'],
  '@actions/exec': ['action'],
  '@actions/http-client': ['action'],
  '@actions/io': ['action'],
  ajv: ['action', 'cli'],
  commander: ['cli'],
  diff: ['cli'],
  'email-providers': ['action', 'cli'],
  picocolors: ['cli'],
  tldts: ['action', 'cli'],
  tunnel: ['action'],
  undici: ['action', 'cli'],
  yaml: ['action', 'cli'],
};
const DEV_TOOLS = ['vitest', 'eslint', 'esbuild', 'typescript', 'tsx', 'fast-check', 'dns2', 'proxy', '@types/node', 'ajv-formats', 'typescript-eslint'];

const fullName = (component: { group?: string; name: string }): string => (component.group ? `${component.group}/${component.name}` : component.name);
const bundlesOf = (component: CycloneDx['components'][number]): string[] =>
  component.properties.filter((property) => property.name === BUNDLE_PROPERTY).map((property) => property.value);
const manifest = (dir: string): { name: string; version: string; license: string } =>
  JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as { name: string; version: string; license: string };

let bom: CycloneDx;

beforeAll(async () => {
  bom = cycloneDx(await metafiles(), { root: REPO_ROOT });
}, 120_000);

describe('the SBOM of the bundles', () => {
  it('lists exactly the bundled packages, each in the bundles that hold it, and no dev tool', () => {
    const listed: Record<string, Set<string>> = {};
    for (const component of bom.components) for (const bundle of bundlesOf(component)) (listed[fullName(component)] ??= new Set()).add(bundle);
    expect(Object.fromEntries(Object.entries(listed).map(([name, bundles]) => [name, [...bundles].sort()]))).toEqual(BUNDLED);
    for (const tool of DEV_TOOLS) expect(Object.keys(listed), tool).not.toContain(tool);
  });

  it('names each package by the version and licence of the copy bundled: a nested copy is a component of its own', () => {
    const undici = bom.components.filter((component) => component.name === 'undici').map((component) => component.version).sort();
    const nested = manifest('node_modules/@actions/http-client/node_modules/undici').version;
    expect(undici).toEqual([nested, manifest('node_modules/undici').version].sort());
    expect(new Set(undici).size).toBe(2);
    for (const component of bom.components) {
      const dir = component.version === nested && component.name === 'undici' ? 'node_modules/@actions/http-client/node_modules/undici' : `node_modules/${fullName(component)}`;
      const pkg = manifest(dir);
      expect(component.version, dir).toBe(pkg.version);
      expect(component.licenses, dir).toEqual([{ license: { id: pkg.license } }]);
      expect(component.purl, dir).toBe(`pkg:npm/${pkg.name.replace('@', '%40')}@${pkg.version}`);
      expect(component['bom-ref']).toBe(component.purl);
      expect(component.type).toBe('library');
    }
  });

  it('is a CycloneDX 1.6 document about this package, which depends on every component', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };
    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, $schema: 'http://cyclonedx.org/schema/bom-1.6.schema.json' });
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u);
    expect(bom.metadata.component).toMatchObject({ type: 'application', name: 'autojoin-sync', version: pkg.version, purl: `pkg:npm/autojoin-sync@${pkg.version}` });
    expect(bom.metadata.component.externalReferences).toEqual([{ type: 'vcs', url: pkg.repository.url.replace(/^git\+/u, '') }]);
    expect(bom.metadata.tools.components.map((tool) => tool.name)).toEqual(['esbuild']);
    const root = bom.dependencies.find((dependency) => dependency.ref === bom.metadata.component['bom-ref']);
    expect(root?.dependsOn).toEqual(bom.components.map((component) => component['bom-ref']));
  });

  it('leaves out a package whose every byte tree shaking removed, and keeps one some bytes of which remain', () => {
    const input = (path: string, bytes: number): Metafile => ({
      inputs: { [path]: { bytes: 10, imports: [] } },
      outputs: { 'out.js': { bytes, inputs: { [path]: { bytesInOutput: bytes } }, imports: [], exports: [] } },
    });
    const shaken = cycloneDx([{ meta: 'action', metafile: input('node_modules/yaml/dist/index.js', 0) }], { root: REPO_ROOT });
    expect(shaken.components).toEqual([]);
    const kept = cycloneDx([{ meta: 'action', metafile: input('node_modules/yaml/dist/index.js', 1) }], { root: REPO_ROOT });
    expect(kept.components.map(fullName)).toEqual(['yaml']);
  });
});
