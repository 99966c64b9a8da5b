import type { Command } from 'commander';

/** Registers `autojoin-sync validate` (not implemented yet). */
export function register(program: Command): void {
  program.command('validate').description('(not implemented yet)');
}
