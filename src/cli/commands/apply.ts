import type { Command } from 'commander';

/** Registers `autojoin-sync apply` (not implemented yet). */
export function register(program: Command): void {
  program.command('apply').description('(not implemented yet)');
}
