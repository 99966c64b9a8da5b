/**
 * The README's standalone emulator block, run as a script exactly as written: it plans against the
 * emulator and, when it ends, leaves no emulator running.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../support/cli.js';
import { assertBuilt, policy, tempProject, type TempProject } from './support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let project: TempProject | undefined;
afterEach(() => project?.cleanup());

/** @returns whether something accepts connections at the URL */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe("the README's standalone emulator block", () => {
  it('run as a script, plans against the emulator and stops it', async () => {
    assertBuilt();
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = /```sh\n((?:node dist\/cli\.js|npx autojoin-sync) emulator [\s\S]*?)```/u.exec(readme)?.[1] as string;
    expect(block).toContain('plan my-policies');
    // A clone as the README's reader has it: dist/ built, and npx finding this package's bin.
    project = await tempProject({ 'package.json': '{"name":"reader","version":"1.0.0","private":true}\n', 'my-policies/a.autojoin.yaml': policy('acme', ['acme.com']) });
    symlinkSync(path.dirname(CLI_PATH), path.join(project.dir, 'dist'));
    mkdirSync(path.join(project.dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(CLI_PATH, path.join(project.dir, 'node_modules/.bin/autojoin-sync'));
    writeFileSync(path.join(project.dir, 'block.sh'), block);
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1' };
    const run = spawnSync('bash', ['block.sh'], { cwd: project.dir, env, encoding: 'utf8', timeout: 60_000 });
    expect(run.stdout).toContain('+ team/acme');
    const log = readFileSync(path.join(project.dir, 'emulator.log'), 'utf8');
    const url = /^listening on (\S+)/mu.exec(log)?.[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/u);
    expect(await listening(url)).toBe(false);
  });
});
