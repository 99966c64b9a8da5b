/**
 * `autojoin-sync fmt [--check] [PATH…]`: rewrites policy files in canonical form (keys in
 * schema order; domains normalized, sorted, de-duplicated), keeping comments.
 */
import type { Command } from 'commander';
import { createTwoFilesPatch } from 'diff';
import pc from 'picocolors';
import { allowNoPoliciesOption, contextFlags, useColor } from '../options.js';
import { printNotice } from '../print.js';
import { formatDiagnostic } from '../../render/diagnostics.js';
import { fmtCommand } from '../../commands/fmt-command.js';
import { RunError, ExitCode } from '../../output/exit-codes.js';
import { plural } from '../../text.js';
import { escapeControls } from '../../escape.js';
import { log } from '../../output/log.js';
import { locateRun } from '../../run/place.js';
import { writeStderr, writeStdout } from '../../output/sinks.js';
import { fileShownHere, shownHere } from '../../render/shown-here.js';

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
  // Files are found, read (contained in their own repository) and named from the paths, as plan does.
  const place = await locateRun(process.cwd(), paths, contextFlags().project);
  if (place.notice !== undefined) printNotice(place.notice);
  const outcome = await fmtCommand({ place, check, ...(options.allowNoPolicies === undefined ? {} : { allowNoPolicies: options.allowNoPolicies }) });
  // A diff names files from the repository root, as git's does; the list and the problems from here.
  if (options.diff) for (const { file, before, after } of outcome.changed) writeStdout(unifiedDiff(file, before, after));
  else for (const { file } of outcome.changed) writeStdout(`${fileShownHere(file, place.base)}\n`);
  for (const problem of shownHere(outcome.problems, place.base)) writeStderr(`${escapeControls(formatDiagnostic(problem))}\n`);
  const verb = check ? 'would reformat' : 'reformatted';
  log().info(`${verb} ${outcome.changed.length} of ${plural(outcome.files, 'file')}`);
  if (outcome.unformatted > 0) throw new RunError(`${plural(outcome.unformatted, 'file')} could not be formatted`, ExitCode.error);
  if (outcome.exitCode !== ExitCode.ok) process.exitCode = outcome.exitCode;
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
