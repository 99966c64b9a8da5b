/**
 * Lazy commands: the stand-ins that `--help` lists must read exactly as the commands they stand
 * for, and the command a run names (also after `help`) must be the real one.
 */
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, COMMANDS } from '../../src/cli/program.js';

const ARGV = ['node', 'autojoin-sync'];

function listing(program: Command): string[] {
  const help = new Help();
  return program.commands.map((command) => `${help.subcommandTerm(command)} — ${help.subcommandDescription(command)}`);
}

describe('the command tree', () => {
  it('lists every command in --help exactly as the loaded command would', async () => {
    const stubs = await buildProgram([...ARGV, '--help']);
    const loaded = await buildProgram(ARGV, true);
    expect(listing(stubs)).toEqual(listing(loaded));
    expect(stubs.commands.map((command) => command.name())).toEqual(COMMANDS.map((entry) => entry.name));
  });

  it.each([
    [['plan', 'policies/'], 'plan'],
    [['--no-color', 'apply', '--yes'], 'apply'],
    [['help', 'import'], 'import'],
  ])('loads the command that %j names, and only that one', async (args, name) => {
    const program = await buildProgram([...ARGV, ...args]);
    const withOptions = program.commands.filter((command) => command.options.length > 0).map((command) => command.name());
    expect(withOptions).toEqual([name]);
  });
});
