import type { Command } from 'commander';

/** Registers `autojoin-sync fmt` (not implemented yet). */
export function register(program: Command): void {
  program.command('fmt').description('(not implemented yet)');
}
