/**
 * `autojoin-sync who DOMAIN… [PATH…] [--live]`: which scopes admit a domain, and where the policy
 * files say so. `--live` also reads those scopes (only those) and marks where the service differs.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { renderWhoText } from '../../render/inventory-text.js';
import type { ServiceClient } from '../../service/client.js';
import { whoCommand } from '../../commands/who-command.js';
import type { ReadMode } from '../../service/types.js';
import { RunError } from '../../output/exit-codes.js';
import { addServiceOptions, formatOption } from '../options.js';
import { failOnPolicyErrors } from '../policy-entries.js';
import { writeStdout } from '../../output/sinks.js';
import { withSession } from '../session.js';
import { cliSettings } from '../cli-settings.js';
import { fileShownHere } from '../../render/shown-here.js';

interface WhoFlags {
  format: 'text' | 'json';
  live?: boolean;
  emulator?: boolean;
  listing?: ReadMode;
  concurrency: number;
  requestTimeout?: number;
}

/** Registers `autojoin-sync who`. */
export function register(program: Command): void {
  addServiceOptions(program.command('who'))
    .description('which scopes admit a domain: the scope, and the file:line of its entry (offline unless --live)')
    .argument('<domains-or-paths...>', 'domains to look up; an argument naming an existing file or directory is a policy path (default: .)')
    .addOption(formatOption(['text', 'json']))
    .option('--live', 'also read those scopes (only those) from the service and mark where it differs')
    .addHelpText(
      'after',
      `
A domain matches whatever its case and whether written in Unicode or punycode (müller.de and
xn--mller-kva.de are one domain). Expired entries admit nobody and are not listed.
An argument that names an existing file or directory is a path to search; the others are domains
(of an email address, the part after '@'; of a URL, its host).

Examples:
  $ autojoin-sync who acme.com
  $ autojoin-sync who contractor.example Müller.de policies/
  $ autojoin-sync who acme.com --live                # and does the service agree?
  $ autojoin-sync who acme.com --format json | jq '.domains[0].scopes[].key'`,
    )
    .action((args: string[], flags: WhoFlags) => runWho(args, flags));
}

async function runWho(args: string[], flags: WhoFlags): Promise<void> {
  const cwd = process.cwd();
  const { domains, paths } = await splitArguments(args, cwd);
  if (domains.length === 0) throw new RunError('who needs at least one domain (every argument named an existing file or directory)');
  const settings = await cliSettings(paths, flags);
  const { answers, errors } = await whoCommand({
    context: settings,
    domains,
    ...(flags.live ? { session: (work: (client: ServiceClient) => Promise<void>) => withSession(settings, ({ client }) => work(client)) } : {}),
  });
  failOnPolicyErrors(errors, settings.base);
  writeStdout(flags.format === 'json' ? `${JSON.stringify({ formatVersion: 1, domains: answers }, null, 2)}\n` : renderWhoText(answers, flags.live ?? false, (file) => fileShownHere(file, settings.base)));
}

/** @returns the arguments that name an existing file or directory as paths (default `.`), the others as domains. */
async function splitArguments(args: readonly string[], cwd: string): Promise<{ domains: string[]; paths: string[] }> {
  const domains: string[] = [];
  const paths: string[] = [];
  for (const arg of args) {
    const exists = await stat(path.resolve(cwd, arg)).then(() => true, () => false);
    (exists ? paths : domains).push(arg);
  }
  return { domains, paths: paths.length > 0 ? paths : ['.'] };
}
