import type { Command } from 'commander';

/** Registers `autojoin-sync import` (not implemented yet). */
export function register(program: Command): void {
  program.command('import').description('(not implemented yet)');
}
