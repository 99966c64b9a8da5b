/**
 * `autojoin-sync import`: write canonical policy files from the live state of given scopes,
 * so an existing setup moves to git in one step. `plan` right after shows no changes.
 */
import { mkdir } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ImportedScope } from '../../reconcile/import-scopes.js';
import { importCommand, importFiles } from '../../commands/import-command.js';
import { parseScopeKey, scopeKey, type ScopeRef } from '../../scope.js';
import { RunError } from '../../output/exit-codes.js';
import { log } from '../../output/log.js';
import { plural } from '../../text.js';
import { readScopesFrom } from '../scopes-from.js';
import { printManyDiagnostics, printWarningSummary } from '../print.js';
import { addServiceOptions, collect } from '../options.js';
import type { SettingFlags } from '../../run/settings.js';
import { withSession } from '../session.js';
import { cliSettings } from '../cli-settings.js';
import { writeOutputFile, writeStdout } from '../../output/sinks.js';
import { escapeControls } from '../../escape.js';

interface ImportFlags extends SettingFlags {
  scope?: string[];
  excludeScope?: string[];
  scopesFrom?: string;
  out: string;
  componentId?: string;
  force?: boolean;
}

/** Registers `autojoin-sync import`. */
export function register(program: Command): void {
  addServiceOptions(program.command('import'))
    .description(
      'Read the live autojoin domains of each --scope (or each scope listed in --scopes-from FILE) and write one canonical policy file per scope, ' +
        'named <scopeType>-<scope>.autojoin.yaml (characters other than letters, digits, ".", "_" and ' +
        '"-" become "_"), into DIR. `--out -` prints the documents to stdout instead (separated by ' +
        '---). A scope without active autojoin gets `domains: []`. When any of the files exists, ' +
        'nothing is written unless --force.',
    )
    .option('--scope <TYPE/ID>', 'scopes to import, e.g. team/acme-eng (repeatable)', collect)
    .option('--exclude-scope <TYPE/ID>', 'leave this scope out of those listed (repeatable)', collect)
    .option('--scopes-from <file>', 'read the scopes from FILE (- for stdin): one TYPE/ID a line (# comments), or a plan JSON')
    .option('--out <dir>', 'directory to write the files into, or - for stdout', '.')
    .option('--component-id <id>', 'componentId to write where the live invitation shows none (its componentId or widgetId is written when shown; default: defaults.componentId of autojoin-sync.yaml)')
    .option('--force', 'overwrite existing files')
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync import --scope team/acme-eng --scope team/acme-ops --out policies --component-id cmp_8f2c
  $ autojoin-sync import --scope workspace/main --out -
  $ autojoin-sync import --scopes-from scopes.txt --out policies --component-id cmp_8f2c --quiet
  $ autojoin-sync plan --format json | autojoin-sync import --scopes-from - --out policies --force
  $ autojoin-sync import --scope team/acme-eng --out policies && autojoin-sync plan policies   # no changes

Exit codes: 0 written · 1 error (no componentId, a file exists, a network error)`,
    )
    .action((flags: ImportFlags) => runImport(flags));
}

async function runImport(flags: ImportFlags): Promise<void> {
  const listed = flags.scopesFrom === undefined ? [] : (await readScopesFrom(flags.scopesFrom)).map(scopeKey);
  const excluded = new Set(uniqueRefs(flags.excludeScope ?? []).map(scopeKey));
  const refs = uniqueRefs([...(flags.scope ?? []), ...listed]).filter((ref) => !excluded.has(scopeKey(ref)));
  if (refs.length === 0) throw new RunError('nothing to import: give --scope TYPE/ID (repeatable) or --scopes-from FILE with at least one scope');
  const settings = await cliSettings([flags.out && flags.out !== '-' ? flags.out : '.'], flags);
  await withSession(settings, async ({ client }) => {
    const request = { context: settings, client, refs, out: flags.out, cwd: process.cwd() };
    const outcome = await importCommand({ ...request, ...(flags.componentId === undefined ? {} : { componentId: flags.componentId }) });
    noticeInactive(outcome.inactive);
    if (outcome.refusal) throw outcome.refusal;
    const { passing, failing, imported } = outcome;
    if (flags.out === '-') writeStdout(passing.map((entry) => entry.text).join('---\n'));
    else await writeFiles(passing, flags.out, flags.force ?? false);
    // What validate says of the new files, as validate and plan print it: every error, three warnings of a kind, then a count.
    await printManyDiagnostics(outcome.diagnostics, settings.base);
    printWarningSummary();
    for (const key of failing) log().always(`not written: ${escapeControls(key)}: its file would not pass validate (the errors above); fix it in the service, or write its file by hand`);
    if (failing.size > 0) throw new RunError(`${failing.size} of ${imported.length} scopes were not written: their files would not pass validate`);
  });
}

function uniqueRefs(keys: readonly string[]): ScopeRef[] {
  const refs = new Map<string, ScopeRef>();
  for (const key of keys) {
    let ref: ScopeRef;
    try {
      ref = parseScopeKey(key);
    } catch (error) {
      throw new RunError(`--scope: ${(error as Error).message}`);
    }
    refs.set(scopeKey(ref), ref);
  }
  return [...refs.values()];
}

/** Writes every file once the command layer named them all (a clash or an existing file refused first: nothing written). */
async function writeFiles(imported: readonly ImportedScope[], dir: string, force: boolean): Promise<void> {
  const files = await importFiles(imported, dir, force);
  await mkdir(dir, { recursive: true });
  for (const [index, entry] of imported.entries()) {
    const file = files[index] as string;
    // Never through a symlink; without --force a file that appeared meanwhile is not replaced either.
    await writeOutputFile(file, entry.text, { overwrite: force });
    log().debug(`wrote ${file} (${entry.policy.key}: ${plural(entry.policy.domains.length, 'domain')})`);
  }
  log().info(`wrote ${plural(files.length, 'policy file')} in ${dir}`);
}

const LISTED_INACTIVE = 5;

/** Scopes without active autojoin, by name when few; a count (and --verbose for the names) when many. */
function noticeInactive(keys: readonly string[]): void {
  const named = log().level === 'verbose' || keys.length <= LISTED_INACTIVE;
  if (named) for (const key of keys) log().info(`notice: ${key} has no active autojoin; its file says domains: []`);
  else log().info(`notice: ${keys.length} scopes have no active autojoin; their files say domains: [] (--verbose lists them)`);
}
