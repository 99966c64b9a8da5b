// Types of scripts/sbom.mjs, for the test that holds the SBOM to what the bundles contain.
import type { Metafile } from 'esbuild';

interface Component {
  type: 'library' | 'application';
  'bom-ref': string;
  group?: string;
  name: string;
  version: string;
  purl: string;
  licenses?: ({ license: { id: string } | { name: string } } | { expression: string })[];
  externalReferences?: { type: string; url: string }[];
  properties: { name: string; value: string }[];
}

export interface CycloneDx {
  $schema: string;
  bomFormat: 'CycloneDX';
  specVersion: string;
  serialNumber: string;
  version: number;
  metadata: { timestamp: string; tools: { components: { type: string; name: string; version: string }[] }; component: Omit<Component, 'properties'> };
  components: Component[];
  dependencies: { ref: string; dependsOn: string[] }[];
}

export const SPEC_VERSION: string;
export const BUNDLE_PROPERTY: string;
export function cycloneDx(
  metafiles: readonly { meta: string; metafile: Metafile }[],
  options?: { root?: string; timestamp?: string; serialNumber?: string },
): CycloneDx;
export function readMetafiles(root?: string): { meta: string; metafile: Metafile }[];
