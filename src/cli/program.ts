import { Command } from 'commander';
import { register as registerValidate } from './commands/validate.js';
import { register as registerFmt } from './commands/fmt.js';
import { register as registerPlan } from './commands/plan.js';
import { register as registerApply } from './commands/apply.js';
import { register as registerImport } from './commands/import.js';
import { register as registerPresets } from './commands/presets.js';
import { register as registerEmulator } from './commands/emulator.js';
import { VERSION } from '../version.js';
import { addOutputOptions } from './options.js';

/** Builds the `autojoin-sync` command tree; each command lives in ./commands/<name>.ts. */
export function buildProgram(): Command {
  const program = new Command('autojoin-sync')
    .description(
      'Make the Invitation Service\'s autojoin domains match the policy files in your repository.\n' +
        'Without AUTOJOIN_BASE_URL, outside CI and without AUTOJOIN_API_KEY, commands run against an embedded\n' +
        'local emulator and say so; in CI they stop instead (pass --emulator to use it anyway).',
    )
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true });
  addOutputOptions(program);
  for (const register of [
    registerValidate,
    registerFmt,
    registerPlan,
    registerApply,
    registerImport,
    registerPresets,
    registerEmulator,
  ]) {
    register(program);
  }
  program.addHelpText(
    'after',
    `
Getting started:
  $ autojoin-sync validate policies/     check the files offline (no credentials)
  $ autojoin-sync plan policies/         show what would change on the service
  $ autojoin-sync apply policies/        make the service match (shows the plan, asks first)
  $ autojoin-sync <command> --help       flags and examples of one command

Environment:
  AUTOJOIN_BASE_URL      service base URL (https://…; http:// only for loopback; \`embedded\`: as --emulator)
  AUTOJOIN_API_KEY       key for the invitation calls (listings, autojoin)
  AUTOJOIN_ACCESS_TOKEN  bearer token for the preset calls
  AUTOJOIN_LOG=debug     as --verbose (AUTOJOIN_LOG=quiet as --quiet)
  HTTPS_PROXY, NO_PROXY  proxy for the service's requests (HTTP_PROXY for http://)
  NODE_EXTRA_CA_CERTS    PEM file of a private CA to trust
  NO_COLOR, FORCE_COLOR  disable / force colour

Exit codes: 0 ok · 1 error · 2 changes pending (--detailed-exitcode) · 3 refused by a safety limit · 4 saved plan is stale`,
  );
  return program;
}
