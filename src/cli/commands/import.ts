/**
 * `autojoin-sync import`: write canonical policy files from the live state of given scopes,
 * so an existing setup moves to git in one step. `plan` right after shows no changes.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { importScopes, type ImportedScope } from '../../reconcile/index.js';
import { parseScopeKey, scopeKey, type ScopeRef } from '../../scope.js';
import type { ListingKind } from '../../service/types.js';
import { RunError } from '../../run/exit-codes.js';
import { concurrencyOption, listingOption } from '../options.js';
import { withSession } from '../session.js';
import { pathExists } from '../../files.js';

interface ImportFlags {
  scope: string[];
  out: string;
  componentId?: string;
  force?: boolean;
  listing: ListingKind;
  concurrency: number;
}

/** Registers `autojoin-sync import`. */
export function register(program: Command): void {
  program
    .command('import')
    .description(
      'Read the live autojoin domains of each --scope and write one canonical policy file per scope, ' +
        'named <scopeType>-<scope>.autojoin.yaml (characters other than letters, digits, ".", "_" and ' +
        '"-" become "_"), into DIR. `--out -` prints the documents to stdout instead (separated by ' +
        '---). A scope without active autojoin gets `domains: []`. When any of the files exists, ' +
        'nothing is written unless --force.',
    )
    .requiredOption('--scope <TYPE/ID...>', 'scopes to import, e.g. team/acme-eng (repeatable)', collectScopes)
    .option('--out <dir>', 'directory to write the files into, or - for stdout', '.')
    .option('--component-id <id>', 'componentId to write (default: defaults.componentId of autojoin-sync.yaml)')
    .option('--force', 'overwrite existing files')
    .addOption(listingOption())
    .addOption(concurrencyOption())
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync import --scope team/acme-eng --scope team/acme-ops --out policies --component-id cmp_8f2c
  $ autojoin-sync import --scope workspace/main --out -
  $ autojoin-sync import --scope team/acme-eng --out policies && autojoin-sync plan policies   # no changes

Exit codes: 0 written · 1 error (no componentId, a file exists, a network error)`,
    )
    .action((flags: ImportFlags) => runImport(flags));
}

function collectScopes(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

async function runImport(flags: ImportFlags): Promise<void> {
  const refs = uniqueRefs(flags.scope);
  await withSession(process.cwd(), [flags.out && flags.out !== '-' ? flags.out : '.'], async ({ client, project }) => {
    const componentId = flags.componentId ?? project.defaults?.componentId;
    const imported = await importScopes(client, refs, { listing: flags.listing, concurrency: flags.concurrency, componentId });
    for (const { live } of imported) {
      if (!live.autojoin) process.stderr.write(`notice: ${live.key} has no active autojoin; its file says domains: []\n`);
    }
    if (flags.out === '-') process.stdout.write(imported.map((entry) => entry.text).join('---\n'));
    else await writeFiles(imported, flags.out, flags.force ?? false);
  }, flags.concurrency);
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

/** Checks every target first, so a refusal writes nothing; then writes all files. */
async function writeFiles(imported: readonly ImportedScope[], dir: string, force: boolean): Promise<void> {
  const files = imported.map((entry) => join(dir, policyFileName(entry.policy)));
  const clash = findDuplicate(files);
  if (clash) throw new RunError(`two scopes map to the same file name ${clash}; import them into different directories`);
  if (!force) {
    for (const file of files) {
      if (await pathExists(file)) throw new RunError(`${file} exists; nothing was written (pass --force to overwrite)`);
    }
  }
  await mkdir(dir, { recursive: true });
  for (const [index, entry] of imported.entries()) {
    const file = files[index] as string;
    await writeFile(file, entry.text);
    process.stderr.write(`wrote ${file} (${entry.policy.key}: ${entry.policy.domains.length} domains)\n`);
  }
}

/** `<scopeType>-<scope>.autojoin.yaml` with anything but `[A-Za-z0-9._-]` as `_`, never hidden. */
export function policyFileName(ref: ScopeRef): string {
  const safe = `${ref.scopeType}-${ref.scope}`.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\./, '_');
  return `${safe}.autojoin.yaml`;
}

function findDuplicate(values: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value.toLowerCase())) return value;
    seen.add(value.toLowerCase());
  }
  return undefined;
}
