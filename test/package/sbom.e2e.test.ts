/**
 * `node scripts/sbom.mjs` as the release workflow runs it, after the build (the e2e global setup
 * ran scripts/build.mjs): it reads the metafiles the build wrote for every bundle to dist/meta/
 * and lists what an in-memory bundling finds.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { metafiles } from '../../scripts/build.mjs';
import { cycloneDx, type CycloneDx } from '../../scripts/sbom.mjs';
import { REPO_ROOT } from '../action/support/run-action.js';

const run = promisify(execFile);
const refs = (bom: CycloneDx): string[] => bom.components.map((component) => `${component['bom-ref']} ${JSON.stringify(component.properties)}`);

describe('scripts/sbom.mjs after the build', () => {
  it('reads a metafile of every bundle from dist/meta/ and lists what bundling them finds', async () => {
    expect((await readdir(join(REPO_ROOT, 'dist/meta'))).sort()).toEqual(['action.json', 'cli-chunks.json', 'cli-entry.json']);
    const temp = await mkdtemp(join(tmpdir(), 'autojoin-sbom-'));
    try {
      const out = join(temp, 'sbom.cdx.json');
      await run(process.execPath, ['scripts/sbom.mjs', '--out', out], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', SOURCE_DATE_EPOCH: '1767225600' } });
      const written = JSON.parse(await readFile(out, 'utf8')) as CycloneDx;
      expect(written.metadata.timestamp).toBe('2026-01-01T00:00:00.000Z');
      expect(refs(written)).toEqual(refs(cycloneDx(await metafiles(), { root: REPO_ROOT })));
      expect(written.components.length).toBeGreaterThan(5);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  }, 120_000);
});
