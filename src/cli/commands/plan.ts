import type { Command } from 'commander';

/** Registers `autojoin-sync plan` (not implemented yet). */
export function register(program: Command): void {
  program.command('plan').description('(not implemented yet)');
}
