/**
 * `autojoin-sync completion bash|zsh|fish`: prints a shell completion script (subcommands,
 * flags, and the TYPE/ID keys of the policy files for --scope). `--list-scopes` is what the
 * scripts call to complete a scope key: the keys the policy files under the current directory declare.
 */
import { Option, type Command } from 'commander';
import { scopeKeysCommand } from '../../commands/scope-keys-command.js';
import { locateRun } from '../../run/place.js';
import { RunError } from '../../output/exit-codes.js';
import { writeStdout } from '../../output/sinks.js';
import { completionScript, SHELLS, type CompletionTree, type Shell } from '../completion-scripts.js';

/** What the command needs of the tree (given by src/cli/program.ts, which this module does not import). */
interface TreeSource {
  /** @returns the tree with every command loaded in full, so the script lists each one's flags. */
  fullProgram(): Promise<Command>;
}

/** Registers `autojoin-sync completion`. */
export function register(program: Command, tree: TreeSource): void {
  program
    .command('completion')
    .description('Print a completion script for bash, zsh or fish: subcommands, flags, and the TYPE/ID keys of the policy files for --scope.')
    .argument('[shell]', `one of ${SHELLS.join(', ')}`)
    .addOption(new Option('--list-scopes', 'print the scope keys the policy files under . declare, one a line (what the scripts call)').hideHelp())
    .addHelpText(
      'after',
      `
Examples:
  $ source <(autojoin-sync completion bash)        # in ~/.bashrc
  $ source <(autojoin-sync completion zsh)         # in ~/.zshrc, after compinit
  $ autojoin-sync completion fish > ~/.config/fish/completions/autojoin-sync.fish`,
    )
    .action((shell: string | undefined, flags: { listScopes?: boolean }) => runCompletion(tree, shell, flags));
}

async function runCompletion(tree: TreeSource, shell: string | undefined, flags: { listScopes?: boolean }): Promise<void> {
  if (flags.listScopes) {
    writeStdout(await declaredKeys());
    return;
  }
  if (!SHELLS.includes(shell as Shell)) throw new RunError(`completion needs a shell: ${SHELLS.join(', ')} (e.g. autojoin-sync completion bash)`);
  const full = await tree.fullProgram();
  writeStdout(completionScript(shell as Shell, treeOf(full)));
}

function treeOf(program: Command): CompletionTree {
  const longFlags = (command: Command): string[] =>
    command.options.filter((option) => !option.hidden && option.long !== undefined).map((option) => option.long as string);
  return {
    commands: program.commands.map((command) => ({ name: command.name(), summary: command.summary() || command.description(), flags: longFlags(command) })),
    globalFlags: [...program.options.filter((option) => !option.hidden).map((option) => option.long ?? option.short ?? ''), '--help'],
    globalValueFlags: program.options.filter((option) => !option.hidden && (option.required || option.optional)).map((option) => option.long ?? option.short ?? ''),
  };
}

/** The keys, one a line; files with errors give what they can, and nothing is printed on stderr. */
async function declaredKeys(): Promise<string> {
  const keys = await scopeKeysCommand(await locateRun(process.cwd(), ['.']));
  return keys.map((key) => `${key}\n`).join('');
}
