import type { Command } from 'commander';

/** Registers `autojoin-sync presets` (not implemented yet). */
export function register(program: Command): void {
  program.command('presets').description('(not implemented yet)');
}
