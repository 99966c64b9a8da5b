import type { Command } from 'commander';

/** Registers `autojoin-sync emulator` (not implemented yet). */
export function register(program: Command): void {
  program.command('emulator').description('(not implemented yet)');
}
