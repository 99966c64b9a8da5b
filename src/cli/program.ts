/**
 * The `autojoin-sync` command tree. Commands load lazily: only the command being run is imported
 * (with everything it needs: the policy loader, the client, the emulator…); the others are
 * stand-ins that carry just the line `--help` shows for them. So `--version` and `--help` load
 * commander, the output sinks and the escaping (which every message goes through) and nothing else.
 */
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { escapeControls } from '../escape.js';
import { redactOutput, writeStderr, writeStdout } from '../output/sinks.js';
import { environmentHelp } from '../environment.js';
import { addOutputOptions } from './options.js';

/** A command as the top-level help lists it, and how to load its module. */
export interface CommandEntry {
  name: string;
  /** What the top-level help shows after the name, e.g. `[options] [path...]` (test/cli/program.test.ts keeps it true). */
  usage: string;
  summary: string;
  load: () => Promise<{ register(program: Command, context: RegisterContext): void }>;
}

/**
 * What a command may need of the tree it joins, handed to it (a command module never imports
 * this one: `completion` lists every command's flags through `fullProgram`).
 */
export interface RegisterContext {
  /** @returns the tree with every command loaded in full. */
  fullProgram(): Promise<Command>;
}

/** Every command, in help order; each lives in ./commands/<name>.ts. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'validate',
    usage: '[options] [paths...]',
    summary: 'check policy files offline: schema, YAML hazards, domains, duplicate scopes (no network, no credentials)',
    load: () => import('./commands/validate.js'),
  },
  {
    name: 'fmt',
    usage: '[options] [paths...]',
    summary: 'rewrite policy files in canonical form (normalized, sorted domains; comments kept)',
    load: () => import('./commands/fmt.js'),
  },
  { name: 'plan', usage: '[options] [path...]', summary: 'show what apply would change (writes nothing)', load: () => import('./commands/plan.js') },
  { name: 'apply', usage: '[options] [path...]', summary: 'make the Invitation Service match the policy files', load: () => import('./commands/apply.js') },
  { name: 'show', usage: '[options] <file>', summary: 'render a saved plan after its checks (no network)', load: () => import('./commands/show.js') },
  { name: 'adopt', usage: '[options] [path...]', summary: 'write scopes changed outside git into their policy files', load: () => import('./commands/adopt.js') },
  { name: 'who', usage: '[options] <domains-or-paths...>', summary: 'which scopes admit a domain, with the file:line of its entry', load: () => import('./commands/who.js') },
  { name: 'inventory', usage: '[options] [paths...]', summary: 'every scope and domain as CSV, JSON or markdown (--blame: who added it)', load: () => import('./commands/inventory.js') },
  {
    name: 'merge-plans',
    usage: '[options] <parts...>',
    summary: 'merge the shard plans of one run into one plan (no network)',
    load: () => import('./commands/merge-plans.js'),
  },
  { name: 'import', usage: '[options]', summary: 'write policy files from the live state of scopes', load: () => import('./commands/import.js') },
  { name: 'presets', usage: '', summary: 'read customer invitation presets (JSON to stdout)', load: () => import('./commands/presets.js') },
  { name: 'completion', usage: '[options] [shell]', summary: 'print a shell completion script (bash, zsh, fish)', load: () => import('./commands/completion.js') },
  { name: 'emulator', usage: '[options]', summary: 'run a local emulator of the Invitation Service', load: () => import('./commands/emulator.js') },
];

/**
 * Builds the command tree for `argv`: the command it names (also after `help`) is loaded in
 * full, every other one is a stand-in for the help listing.
 * @param loadAll load every command (tests compare the stand-ins with the real thing)
 */
export async function buildProgram(argv: readonly string[], loadAll = false): Promise<Command> {
  const program = new Command('autojoin-sync')
    .description(
      'Make the Invitation Service\'s autojoin domains match the policy files in your repository.\n' +
        'Without AUTOJOIN_BASE_URL, outside CI and without AUTOJOIN_API_KEY, commands run against an embedded ' +
        'local emulator and say so; in CI they stop instead (pass --emulator to use it anyway).',
    )
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    // commander's own messages echo what was typed (a flag's value, a command), where a pasted
    // key or a value a workflow passes on (a branch name) would land: they go through the
    // redacting sinks like every other byte, and its usage errors are escaped as other text
    // from outside is (redacted first, so the redactor sees the value whole). Every command
    // added with .command() inherits this.
    .configureOutput({ writeOut: writeStdout, writeErr: writeStderr, outputError: (text, write) => write(escapeControls(redactOutput(text), true)) });
  addOutputOptions(program);
  const wanted = commandNamed(argv);
  const context: RegisterContext = { fullProgram: () => buildProgram(['node', 'autojoin-sync'], true) };
  for (const entry of COMMANDS) {
    if (loadAll || entry.name === wanted) (await entry.load()).register(program, context);
    else program.command(`${entry.name} ${entry.usage}`.trim());
    program.commands.at(-1)?.summary(entry.summary);
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
${environmentHelp()}

Exit codes: 0 ok · 1 error · 2 changes pending (--detailed-exitcode) · 3 refused by a safety limit · 4 saved plan is stale`,
  );
  return program;
}

const GLOBAL_VALUE_OPTIONS = new Set(['-C', '--project']);

/** @returns the command `argv` runs or asks help for: its first word that is not a flag (after `help`, the next one). */
function commandNamed(argv: readonly string[]): string | undefined {
  // The global options that take a value (-C DIR, --project FILE): their value is no command.
  const args = argv.slice(2);
  const words = args.filter((arg, index) => !arg.startsWith('-') && !GLOBAL_VALUE_OPTIONS.has(args[index - 1] ?? ''));
  return words[0] === 'help' ? words[1] : words[0];
}
