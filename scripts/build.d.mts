// Types of scripts/build.mjs, for the tests that read what the bundles contain.
import type { BuildOptions, Metafile } from 'esbuild';

export const META_DIR: string;
export const targets: Record<string, (BuildOptions & { meta: string; prebuild?: string })[]>;
export function metafiles(): Promise<{ meta: string; metafile: Metafile }[]>;
export function esbuildOptions(target: Record<string, unknown>, define: Record<string, string>): BuildOptions;
