/**
 * The README is the front page: these tests keep it true. The quick start and the five-minute
 * tour are run as written (with `npx autojoin-sync` pointed at the built bundle), checking the
 * output the README quotes after each `#`; the command sections of docs/cli.md must name exactly
 * the flags the spawned CLI's `--help` shows. (The key tables, the links and the generated list of
 * flags are checked in-process by test/docs/reference.test.ts.)
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, runCli } from '../support/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);
let readme: string;
let cliPage: string;

beforeAll(async () => {
  readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  cliPage = await readFile(path.join(ROOT, 'docs/cli.md'), 'utf8');
});

/** The text between `<!-- name… -->` and `<!-- /name -->` of docs/cli.md. */
function region(name: string): string {
  const start = cliPage.indexOf(`<!-- ${name}`);
  const end = cliPage.indexOf(`<!-- /${name} -->`);
  expect(start, `docs/cli.md region ${name}`).toBeGreaterThanOrEqual(0);
  expect(end).toBeGreaterThan(start);
  return cliPage.slice(start, end);
}

/** `### \`name …\`` sections of docs/cli.md's command reference, by command. */
function cliSections(): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of region('cli-reference').split(/^### /m).slice(1)) {
    const command = /^`([a-z-]+)/.exec(part)?.[1];
    if (command) sections.set(command, part);
  }
  return sections;
}

const flagsIn = (text: string): string[] => [...new Set([...text.matchAll(/(?<![\w-])--?[a-z][a-z-]*/g)].map((m) => m[0]))].filter((flag) => flag !== '--help').sort();

/** Flags of a command's `--help` (Options block only). */
async function helpFlags(command: string[]): Promise<string[]> {
  const help = await runCli([...command, '--help']);
  expect(help.code).toBe(0);
  const options = help.stdout.split(/^Options:$/m)[1]?.split(/^\S/m)[0] ?? '';
  const flags = [...options.matchAll(/^ {2}(-[a-z], )?(--[a-z][a-z-]*)/gm)].flatMap((m) => [m[1]?.slice(0, 2), m[2]]);
  return flags.filter((flag): flag is string => flag !== undefined && flag !== '-h' && flag !== '--help').sort();
}

describe('docs/cli.md command sections', () => {
  it('has a section for every command of `--help`', async () => {
    const help = await runCli(['--help']);
    const commands = [...help.stdout.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1]).filter((name) => name !== 'help');
    expect([...cliSections().keys()].sort()).toEqual([...commands].sort());
  });

  it.each(['validate', 'fmt', 'plan', 'apply', 'import', 'emulator', 'who', 'inventory'])('names exactly the flags of `%s --help`', async (command) => {
    const section = cliSections().get(command) ?? '';
    expect(flagsIn(section)).toEqual(await helpFlags([command]));
  });

  it('presets subcommands take --request-timeout and --emulator, as documented', async () => {
    const flags = ['--emulator', '--request-timeout'];
    const section = cliSections().get('presets') ?? '';
    expect(flagsIn(section)).toEqual(flags);
    expect(await helpFlags(['presets', 'email', 'list'])).toEqual(flags);
    expect(await helpFlags(['presets', 'form-style', 'get'])).toEqual(flags);
  });
});

/** Shell commands of a ```sh block; a heredoc stays one command with its body. */
function shellCommands(block: string): string[] {
  const commands: string[] = [];
  const lines = block.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    const heredoc = /<<'(\w+)'$/.exec(line);
    if (!heredoc) {
      commands.push(line);
      continue;
    }
    const end = lines.indexOf(heredoc[1] as string, i + 1);
    commands.push(lines.slice(i, end + 1).join('\n'));
    i = end;
  }
  return commands;
}

function shBlocks(text: string): string[] {
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

function section(title: string): string {
  const start = readme.indexOf(`## ${title}`);
  expect(start, `README section ${title}`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 3);
  return readme.slice(start, end === -1 ? undefined : end);
}

// A tour: each block builds on the files the ones before it wrote, so it never runs shuffled.
describe('README commands work as written', { shuffle: false }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'autojoin-readme-'));
    // Not the state a quick start left behind (examples/.autojoin-sync/): a fresh clone has none.
    await cp(path.join(ROOT, 'examples'), path.join(dir, 'examples'), { recursive: true, filter: (source) => !source.split(path.sep).includes('.autojoin-sync') });
    await cp(path.join(ROOT, 'schemas'), path.join(dir, 'schemas'), { recursive: true });
    // The README speaks of a clone, a git repository: outside one, the project file would be
    // read from the working directory only (issue 12), not from examples/.
    await run('git', ['init', '-q'], { cwd: dir });
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs one README command in `dir` (npx autojoin-sync → the built bundle); @returns its output. */
  async function sh(command: string): Promise<string> {
    const script = command.replaceAll('npx autojoin-sync', `node ${JSON.stringify(CLI_PATH)}`);
    const env = { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1' };
    try {
      const { stdout, stderr } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: dir, env, timeout: 60_000 });
      return stdout + stderr;
    } catch (error) {
      const failure = error as { code?: number; stdout?: string; stderr?: string };
      throw new Error(`README command failed (exit ${String(failure.code)}): ${command}\n${failure.stdout ?? ''}${failure.stderr ?? ''}`);
    }
  }

  it('quick start: apply examples/policies to the embedded emulator, then nothing is pending', async () => {
    const [block] = shBlocks(section('Quick start'));
    const [install, tests] = shellCommands(block ?? '');
    expect(install).toBe('npm ci && npm run build && npx autojoin-sync apply examples/policies --yes');
    expect(tests).toBe('npm test');
    // The global setup built dist/ already.
    const output = await sh((install as string).replace('npm ci && npm run build && ', ''));
    expect(output).toMatch(/^Applied \d+, failed 0, skipped 0\.$/m);
    expect(output).toMatch(/^using (no project file|project file \S+); service host 127\.0\.0\.1:\d+ \(embedded emulator, state in \.autojoin-sync\/emulator\.json\)$/m);
    expect(await sh('npx autojoin-sync plan examples/policies --detailed-exitcode')).toMatch(/^No changes\. \d+ scopes match their policy files\.$/m);
  });

  it('the five-minute tour: each command succeeds and prints what the README says', async () => {
    const tour = section('A five-minute tour');
    const blocks = shBlocks(tour).filter((block) => !block.includes('emulator --port'));
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    for (const block of blocks) {
      for (const command of shellCommands(block)) {
        const output = await sh(command);
        const expected = /\s#\s(.+)$/.exec(command)?.[1];
        if (expected) expect(output, command).toContain(expected.trim());
      }
    }
    const planOutput = /```\n(\+ team\/acme-design[\s\S]*?)```/.exec(tour)?.[1];
    expect(planOutput).toBeDefined();
    await rm(path.join(dir, '.autojoin-sync'), { recursive: true, force: true });
    expect(await sh('npx autojoin-sync plan my-policies')).toContain(planOutput as string);
  });

  // Running the emulator on its own, as the tour shows: the block runs as written, as a script, in test/e2e/readme-emulator.e2e.test.ts.
});
