/**
 * The npm package as a user gets it: `npm pack` the repository, install the tarball into an empty
 * folder (locally, globally, through npx) with scripts off and no network, and run commands there.
 * dist/cli.js is already built by the vitest globalSetup, so packing skips the prepack build.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../action/support/run-action.js';

const run = promisify(execFile);
const MAX_UNPACKED_BYTES = 2_500_000;

interface PackResult {
  filename: string;
  unpackedSize: number;
  files: { path: string }[];
}

let temp: string;
let tarball: string;
let packed: PackResult;

/** A clean environment: no npm_config_* of the parent npm, a private cache, no update check, no CI. */
function npmEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: join(temp, 'home'),
    npm_config_cache: join(temp, 'cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    NO_COLOR: '1',
  };
}

async function sh(file: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return run(file, args, { cwd, env: npmEnv(), timeout: 60_000 });
}

async function emptyFolder(name: string): Promise<string> {
  const dir = join(temp, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), 'autojoin-pack-'));
  await mkdir(join(temp, 'home'));
  const { stdout } = await sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', temp], REPO_ROOT);
  packed = (JSON.parse(stdout) as PackResult[])[0] as PackResult;
  tarball = join(temp, packed.filename);
}, 120_000);

afterAll(async () => {
  await rm(temp, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('holds the CLI, schemas, notices and docs, not the action bundle, under 2.5 MB unpacked', () => {
    const paths = packed.files.map((file) => file.path).sort();
    expect(paths).toEqual(expect.arrayContaining([
      'CHANGELOG.md', 'LICENSE', 'README.md', 'dist/THIRD_PARTY_NOTICES.txt', 'dist/cli.js', 'package.json',
      'schemas/apply-report.schema.json', 'schemas/autojoin.schema.json', 'schemas/plan.schema.json', 'schemas/project.schema.json',
      'schemas/result.schema.json', 'schemas/validate-report.schema.json', 'schemas/notify-webhook.schema.json',
    ]));
    expect(paths).not.toContain('dist/action.js');
    expect(paths.filter((path) => path.startsWith('dist/meta/')), 'the build\'s metafiles (the SBOM\'s input) stay out').toEqual([]);
    expect(paths.filter((path) => !/^(dist|schemas)\/|^[A-Z_]+\.md$|^LICENSE$|^package\.json$/.test(path))).toEqual([]);
    expect(packed.unpackedSize).toBeLessThan(MAX_UNPACKED_BYTES);
  });

  it('declares no script npm runs on install (so no install-script warning); the build runs at pack time', async () => {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[hook], hook).toBeUndefined();
    expect(manifest.scripts?.prepack).toBe('node scripts/build.mjs');
  });

  it('declares no runtime dependencies (the CLI is bundled) and its bin is dist/cli.js', async () => {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.bin).toEqual({ 'autojoin-sync': 'dist/cli.js' });
  });

  it('names every bundled package and its licence in the notices', async () => {
    const notices = await readFile(join(REPO_ROOT, 'dist/THIRD_PARTY_NOTICES.txt'), 'utf8');
    for (const name of ['commander', 'undici', 'yaml', 'ajv', 'tldts']) expect(notices).toMatch(new RegExp(`^${name}@\\d+\\.\\d+\\.\\d+ \\(`, 'm'));
    expect(notices).toContain('Permission is hereby granted');
  });

  it('installs offline with scripts off into an empty folder and runs every kind of command there', async () => {
    const dir = await emptyFolder('local');
    await sh('npm', ['install', '--offline', '--ignore-scripts', tarball], dir);
    const bin = join(dir, 'node_modules/.bin/autojoin-sync');
    expect((await sh(bin, ['--version'], dir)).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    await writeFile(
      join(dir, 'team.autojoin.yaml'),
      'scope: acme-eng\nscopeType: team\ncomponentId: cmp_1\ndomains: [acme.com]\n',
    );
    expect((await sh(bin, ['validate'], dir)).stderr).toContain('1 valid policy');
    const apply = await sh(bin, ['apply', '--yes'], dir);
    expect(apply.stdout).toContain('applied');
    expect(apply.stderr).toContain('embedded emulator');
    expect((await sh(bin, ['plan'], dir)).stdout).toContain('No changes');
  });

  it('plans a repository other than its working directory\'s: the same plan from outside the clone as from inside it', async () => {
    const dir = await emptyFolder('outside');
    await sh('npm', ['install', '--offline', '--ignore-scripts', tarball], dir);
    const bin = join(dir, 'node_modules/.bin/autojoin-sync');
    const clone = await emptyFolder('clone');
    await mkdir(join(clone, 'policies/teams'), { recursive: true });
    await writeFile(join(clone, 'autojoin-sync.yaml'), 'defaults:\n  componentId: cmp_clone\n');
    await writeFile(join(clone, 'policies/teams/eng.autojoin.yaml'), 'scope: eng\nscopeType: team\ndomains: [eng.example]\n');
    await sh('git', ['init', '-q'], clone);
    const plan = async (args: string[], cwd: string): Promise<string> =>
      (await sh(bin, ['plan', '--format', 'json', ...args], cwd)).stdout.replace(/"createdAt": "[^"]*"/u, '');
    const outside = await plan([join(clone, 'policies')], dir);
    expect(outside).toContain('"componentId": "cmp_clone"');
    expect(await plan(['.'], join(clone, 'policies/teams'))).toBe(outside);
  });

  it('installs globally (npm install -g) and runs through npx from an empty folder', async () => {
    const prefix = await emptyFolder('global');
    await sh('npm', ['install', '-g', '--prefix', prefix, '--offline', '--ignore-scripts', tarball], temp);
    expect((await sh(join(prefix, 'bin/autojoin-sync'), ['--help'], temp)).stdout).toContain('Usage: autojoin-sync');
    const empty = await emptyFolder('npx');
    const npx = await sh('npx', ['--offline', '--yes', '--package', tarball, '--', 'autojoin-sync', '--version'], empty);
    expect(npx.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
