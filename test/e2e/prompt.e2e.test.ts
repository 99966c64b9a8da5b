/**
 * The confirmation as Terraform asks it: whenever stdin is a terminal (also `apply | tee log`,
 * the plan then on stderr), and only `yes` approves. Run on a pseudo-terminal through util-linux
 * `script`; the pipe is made by the shell `script` starts.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { CLI_PATH, ignoreClosedPipe } from '../support/cli.js';
import { requires, SCRIPT } from '../support/requires.js';
import { cliOnTty, expectNoSecret, liveDomains, policy, posts, SECRET, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

/** Runs `node cli.js apply | tee apply.log` on a pseudo-terminal, typing `input` once the question shows. */
function applyThroughTee(input: string): Promise<{ code: number | null; output: string }> {
  const command = `node '${CLI_PATH}' apply | tee apply.log`;
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', AUTOJOIN_BASE_URL: emulator.url, AUTOJOIN_API_KEY: SECRET };
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: project.dir, env, stdio: 'pipe' });
    let output = '';
    let typed = false;
    child.stdin.on('error', ignoreClosedPipe);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (!typed && output.includes('Enter a value:')) {
        typed = true;
        child.stdin.end(input);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      expectNoSecret(output, 'terminal output');
      resolve({ code, output });
    });
  });
}

describe('the apply prompt', () => {
  beforeEach((context) => requires(context, SCRIPT));
  it('asks when stdout is a pipe (apply | tee apply.log): the plan and question on stderr, the report in the log', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const run = await applyThroughTee('yes\n');
    expect(run.output).toContain('+ a.example');
    expect(run.output).toContain("Only 'yes' will be accepted");
    expect(liveDomains(emulator.data(), 'a')).toEqual(['a.example']);
    const log = await readFile(join(project.dir, 'apply.log'), 'utf8');
    expect(log).toContain('Applied 1, failed 0, skipped 0.');
    expect(log).not.toContain('Enter a value');
  });

  it('accepts only "yes": "y" and "YES " cancel and write nothing', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    for (const answer of ['y\n', 'Y\n', 'yes please\n']) {
      const run = await cliOnTty(['apply'], { cwd: project.dir, emulator, input: answer, typeAfter: 'Enter a value:' });
      expect(run.code).toBe(1);
      expect(run.output).toContain('Apply cancelled (only `yes` approves); nothing was written.');
    }
    expect(posts(emulator)).toBe(0);
  });
});
