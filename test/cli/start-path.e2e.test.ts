/**
 * `--version` and `--help` must stay cheap: dist/cli.js answers them (and a bare call) alone from
 * texts the build embedded, which must be exactly what commander prints; and the modules it loads
 * before any other command runs (its eager imports and everything they import statically) may not
 * carry the HTTP client, the emulator, ajv or the domain lists. A plain import of a service module
 * from the start path once pulled a 1 MB chunk in and doubled the start-up time; this keeps it out.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { answerFromPrebuilt, type PrebuiltAnswers } from '../../src/cli/fast-path.js';
import { buildProgram } from '../../src/cli/program.js';
import { CLI_PATH, runCli } from '../support/cli.js';

/** Files reached from `file` through static `import … from "./x.js"` and `import "./x.js"` (and, from the entry, its `await import()`s). */
function startPath(entry: string): Map<string, number> {
  const seen = new Map<string, number>();
  const visit = (file: string, followDynamic: boolean): void => {
    if (seen.has(file)) return;
    const text = readFileSync(file, 'utf8');
    seen.set(file, text.length);
    const specifiers = [...text.matchAll(/(?:from|import)\s*"(\.[^"]+)"/g)].map((match) => match[1] ?? '');
    if (followDynamic) specifiers.push(...[...text.matchAll(/await import\("(\.[^"]+)"\)/g)].map((match) => match[1] ?? ''));
    for (const specifier of specifiers) visit(join(dirname(file), specifier), false);
  };
  visit(entry, true);
  return seen;
}

describe('the CLI start path', () => {
  it('loads under 300 kB of code, and no HTTP client, emulator, ajv or domain list', () => {
    const files = startPath(CLI_PATH);
    const bytes = [...files.values()].reduce((sum, size) => sum + size, 0);
    expect(bytes).toBeLessThan(300_000);
    const code = [...files.keys()].map((file) => readFileSync(file, 'utf8')).join('\n');
    for (const marker of ['EnvHttpProxyAgent', 'listening on', 'gmail.com', 'allErrors']) expect(code, marker).not.toContain(marker);
  });
});

/** What commander itself prints for `args` (built from src/, output not a terminal, no colour), and its exit code. */
async function commanderAnswer(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const argv = ['node', 'autojoin-sync', ...args];
  const program = await buildProgram(argv);
  const output = { stdout: '', stderr: '' };
  program.exitOverride().configureOutput({
    writeOut: (text) => (output.stdout += text),
    writeErr: (text) => (output.stderr += text),
    getOutHelpWidth: () => 80, // commander's width when the stream is not a terminal
    getErrHelpWidth: () => 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return { ...output, code: error.exitCode };
    throw error;
  }
  throw new Error(`commander did not exit on ${args.join(' ')}`);
}

const FAST_ARGS = [['--version'], ['-V'], ['--help'], ['-h'], []];

describe('the prebuilt answers of dist/cli.js', () => {
  it.each(FAST_ARGS)('agree byte for byte with commander on %j (output, stream and exit code)', async (...args) => {
    const expected = await commanderAnswer(args);
    const result = await runCli(args);
    expect({ stdout: result.stdout, stderr: result.stderr, code: result.code }).toEqual(expected);
    expect(expected.stdout + expected.stderr).toMatch(args[0] === '--version' || args[0] === '-V' ? /^\d+\.\d+\.\d+/ : /^Usage: autojoin-sync /);
  });

  const alone = mkdtempSync(join(tmpdir(), 'autojoin-start-'));
  afterAll(() => rmSync(alone, { recursive: true, force: true }));

  it.each(FAST_ARGS)('come from the entry alone, without loading a chunk, on %j', async (...args) => {
    copyFileSync(CLI_PATH, join(alone, 'cli.js'));
    writeFileSync(join(alone, 'package.json'), '{"type":"module"}');
    const lone = spawnSync(process.execPath, [join(alone, 'cli.js'), ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    const full = await runCli(args);
    expect({ stdout: lone.stdout, stderr: lone.stderr, code: lone.status }).toEqual({ stdout: full.stdout, stderr: full.stderr, code: full.code });
    // The copy really has no chunks: anything else fails to load.
    const other = spawnSync(process.execPath, [join(alone, 'cli.js'), 'plan', '--help'], { encoding: 'utf8' });
    expect(other.stderr).toContain('ERR_MODULE_NOT_FOUND');
  });

  it('carry only the version of package.json, not the whole file', () => {
    const chunks = join(dirname(CLI_PATH), 'chunks');
    const code = [CLI_PATH, ...readdirSync(chunks).map((name) => join(chunks, name))].map((file) => readFileSync(file, 'utf8')).join('\n');
    expect(code).not.toContain('devDependencies');
  });
});

describe('answerFromPrebuilt', () => {
  const prebuilt: PrebuiltAnswers = { version: '1.2.3\n', help: 'HELP\n', usage: 'USAGE\n' };
  const streams = (stdout: { isTTY?: boolean; columns?: number } = {}, stderr: { isTTY?: boolean; columns?: number } = {}) => {
    const written = { stdout: '', stderr: '' };
    return {
      written,
      streams: {
        stdout: { ...stdout, write: (text: string) => (written.stdout += text) },
        stderr: { ...stderr, write: (text: string) => (written.stderr += text) },
      },
    };
  };

  it('answers the version and help on stdout with 0, and a bare call with the help on stderr and 1', () => {
    for (const [args, code, stream, text] of [
      [['--version'], 0, 'stdout', '1.2.3\n'],
      [['-V'], 0, 'stdout', '1.2.3\n'],
      [['--help'], 0, 'stdout', 'HELP\n'],
      [['-h'], 0, 'stdout', 'HELP\n'],
      [[], 1, 'stderr', 'USAGE\n'],
    ] as const) {
      const { written, streams: io } = streams();
      expect(answerFromPrebuilt(args, prebuilt, io), args.join(' ')).toBe(code);
      expect(written[stream]).toBe(text);
    }
  });

  it('leaves every other call to commander, and writes nothing', () => {
    for (const args of [['plan'], ['--help', 'plan'], ['-V', '-q'], ['--no-color', '--help'], ['help'], ['--versions'], ['-hV']]) {
      const { written, streams: io } = streams();
      expect(answerFromPrebuilt(args, prebuilt, io), args.join(' ')).toBeUndefined();
      expect(written).toEqual({ stdout: '', stderr: '' });
    }
  });

  it('leaves help to commander on a terminal that is not 80 columns wide (commander wraps to it); the version never wraps', () => {
    const wide = streams({ isTTY: true, columns: 120 }, { isTTY: true, columns: 120 });
    expect(answerFromPrebuilt(['--help'], prebuilt, wide.streams)).toBeUndefined();
    expect(answerFromPrebuilt([], prebuilt, wide.streams)).toBeUndefined();
    expect(answerFromPrebuilt(['--version'], prebuilt, wide.streams)).toBe(0);
    const exact = streams({ isTTY: true, columns: 80 }, { isTTY: true, columns: 80 });
    expect(answerFromPrebuilt(['--help'], prebuilt, exact.streams)).toBe(0);
    expect(answerFromPrebuilt([], prebuilt, exact.streams)).toBe(1);
    expect(answerFromPrebuilt(['--help'], prebuilt, streams({}, { isTTY: true, columns: 120 }).streams)).toBe(0);
  });
});
