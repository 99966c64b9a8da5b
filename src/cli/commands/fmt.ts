/**
 * `autojoin-sync fmt [--check] [PATH…]`: rewrites policy files in canonical form (keys in
 * schema order; domains normalized, sorted, de-duplicated), keeping comments.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { createTwoFilesPatch } from 'diff';
import pc from 'picocolors';
import { allowNoPoliciesOption, useColor } from '../options.js';
import {
  checkPolicyFilesFound,
  discoverPolicyFiles,
  formatDiagnostic,
  formatPolicyText,
  readPolicySources,
  relativePosix,
  tolerateMissingPaths,
  type Diagnostic,
  type PolicySource,
} from '../../policy/index.js';
import { RunError, ExitCode } from '../../output/exit-codes.js';
import { writeFileAtomic } from '../../files.js';
import { plural } from '../../text.js';
import { escapeControls } from '../../escape.js';
import { log } from '../../output/log.js';
import { locateRun, type RunPlace } from '../../run/place.js';
import { writeStderr, writeStdout } from '../../output/sinks.js';

interface FmtOptions {
  check?: boolean;
  diff?: boolean;
  allowNoPolicies?: boolean;
}

/** Registers `autojoin-sync fmt`. */
export function register(program: Command): void {
  program
    .command('fmt')
    .description('rewrite policy files in canonical form (normalized, sorted domains; comments kept)')
    .argument('[paths...]', 'policy files or directories to search (default: .)')
    .option('--check', 'change nothing; list the files that would change and exit 1 if any')
    .option('--diff', 'print a unified diff of each change instead of the file names (with --check: of what fmt would change)')
    .addOption(allowNoPoliciesOption())
    .addHelpText(
      'after',
      `
Canonical form: keys in the order scope, scopeType, scopeName, componentId, metadata, drift, domains;
domains trimmed, lower case, without a trailing dot, sorted (by their punycode form) and
de-duplicated; internationalized names stay as written. Comments stay with the entry they label.
Files with YAML errors are reported on stderr and left untouched (exit 1).
Exit code 1 when a path holds no policy file (unless --allow-no-policies), so a mistyped path
never passes --check.
Prints the files it rewrote (or, with --check, would rewrite) on stdout.

Examples:
  $ autojoin-sync fmt
  $ autojoin-sync fmt --check policies/     # in CI: exit 1 when a file is not formatted
  $ autojoin-sync fmt --check --diff        # and show how: a unified diff per file`,
    )
    .action(async (paths: string[], options: FmtOptions) => {
      await runFmt(paths.length > 0 ? paths : ['.'], options);
    });
}

async function runFmt(paths: string[], options: FmtOptions): Promise<void> {
  const check = options.check ?? false;
  const showDiff = options.diff ?? false;
  // Files are found, read (contained in their own repository) and named from the paths, as plan does.
  const place = await locateRun(process.cwd(), paths);
  const cwd = place.base;
  const { files, sources, problems } = await readSources(place, options.allowNoPolicies);
  const changed: string[] = [];
  for (const source of sources) {
    const result = formatPolicyText(source);
    problems.push(...result.diagnostics);
    if (!result.changed || result.text === undefined) continue;
    changed.push(source.file);
    if (showDiff) writeStdout(unifiedDiff(source.file, source.text, result.text));
    if (!check) await writeFileAtomic(path.resolve(cwd, source.file), result.text);
  }
  if (!showDiff) for (const file of changed) writeStdout(`${file}\n`);
  for (const problem of problems) writeStderr(`${escapeControls(formatDiagnostic(problem))}\n`);
  const verb = check ? 'would reformat' : 'reformatted';
  log().info(`${verb} ${changed.length} of ${plural(files, 'file')}`);
  const unformatted = new Set(problems.filter(isError).map((problem) => problem.file)).size;
  if (unformatted > 0) throw new RunError(`${plural(unformatted, 'file')} could not be formatted`, ExitCode.error);
  if (check && changed.length > 0) process.exitCode = ExitCode.error;
}

/**
 * Finds and reads the policy files under `paths`. Paths without any policy file are refused
 * (NoPoliciesError, nothing written), as validate refuses them, unless `allowNoPolicies`.
 */
async function readSources(
  { paths, base: cwd, roots }: RunPlace,
  allowNoPolicies?: boolean,
): Promise<{ files: number; sources: PolicySource[]; problems: Diagnostic[] }> {
  const discovery = await discoverPolicyFiles(paths, cwd);
  const read = await readPolicySources(discovery.files, cwd, roots);
  const problems = tolerateMissingPaths([...discovery.diagnostics, ...read.diagnostics], allowNoPolicies);
  const found = discovery.files.map((file) => relativePosix(cwd, file));
  if (!problems.some(isError)) checkPolicyFilesFound(paths, found, cwd, allowNoPolicies);
  return { files: discovery.files.length, sources: read.sources, problems };
}

function isError(diagnostic: Diagnostic): boolean {
  return diagnostic.severity === 'error';
}

/** `--- a/FILE` / `+++ b/FILE` and its hunks, as `git diff` shows them; coloured on a terminal. */
function unifiedDiff(file: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 3 });
  // The diff package starts with a `===` rule that git-style tools do not expect.
  const text = patch.replace(/^(Index: .*\n)?=+\n/, '');
  if (!useColor()) return text;
  const colors = pc.createColors(true);
  return text
    .split('\n')
    .map((line) => (line.startsWith('+') ? colors.green(line) : line.startsWith('-') ? colors.red(line) : line.startsWith('@@') ? colors.cyan(line) : line))
    .join('\n');
}
