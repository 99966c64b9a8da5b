/**
 * `autojoin-sync inventory [PATH…] --format csv|json|markdown [--blame]`: one row per scope and
 * domain, for an access review; `--blame` adds who last touched each line (one git blame per file).
 */
import type { Command } from 'commander';
import { inventoryCommand, type InventoryOutcome } from '../../commands/inventory-command.js';
import { renderCsv, renderMarkdownTable } from '../../render/inventory-text.js';
import { failOnPolicyErrors } from '../policy-entries.js';
import { writeStdout } from '../../output/sinks.js';
import { formatOption } from '../options.js';
import { cliSettings } from '../cli-settings.js';

interface InventoryFlags {
  format: 'csv' | 'json' | 'markdown';
  blame?: boolean;
}

/** Registers `autojoin-sync inventory`. */
export function register(program: Command): void {
  program
    .command('inventory')
    .description('list every scope and domain of the policy files: CSV, JSON or markdown, optionally with git blame (offline)')
    .argument('[paths...]', 'policy files or directories to search (default: .)')
    .addOption(formatOption(['csv', 'json', 'markdown']))
    .option('--blame', 'add the commit, author and date that last touched each entry (one git blame per file)')
    .addHelpText(
      'after',
      `
One row per scope and domain entry: scopeType, scope, scopeName, domain, expires, reason, file, line
(expired entries too: their expires date says so). Domains are shown as the service stores them
(lower case, punycode). CSV follows RFC 4180 (a header row, CRLF, quotes where needed); a cell that
a spreadsheet would read as a formula (starting with = + - @, a tab or CR) is prefixed with '.
Reads files only: no network, no credentials.

Examples:
  $ autojoin-sync inventory > access.csv                       # open it in a spreadsheet
  $ autojoin-sync inventory policies/ --format markdown        # a table for an issue or a wiki
  $ autojoin-sync inventory --format json | jq '.rows[] | select(.expires != "")'
  $ autojoin-sync inventory --blame > access-review.csv        # with commit, author and date`,
    )
    .action((paths: string[], flags: InventoryFlags) => runInventory(paths.length > 0 ? paths : ['.'], flags));
}

async function runInventory(paths: string[], flags: InventoryFlags): Promise<void> {
  const settings = await cliSettings(paths, {});
  const outcome = await inventoryCommand({ context: settings, blame: flags.blame ?? false });
  failOnPolicyErrors(outcome.errors, settings.base);
  writeStdout(render(outcome, flags));
}

function render({ rows, columns }: InventoryOutcome, flags: InventoryFlags): string {
  if (flags.format === 'json') return `${JSON.stringify({ formatVersion: 1, rows }, null, 2)}\n`;
  return flags.format === 'markdown' ? renderMarkdownTable(columns, rows) : renderCsv(columns, rows);
}
