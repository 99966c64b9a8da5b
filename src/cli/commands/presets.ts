/**
 * `autojoin-sync presets email list` and `autojoin-sync presets form-style get ID`: read the
 * customer invitation presets (calls 3 and 4, bearer token) and print them as JSON.
 */
import type { Command } from 'commander';
import { emulatorOption, requestTimeoutOption } from '../options.js';
import { resolveSettings } from '../../run/settings.js';
import type { ServiceClient } from '../../service/client.js';
import type { Diagnostic } from '../../policy/types.js';
import { withConnection } from '../../commands/connection.js';
import { writeStdout } from '../../output/sinks.js';
import { cliConnection, cliConnectionView } from '../session.js';
import { printDiagnostics, printNotice } from '../print.js';

/** Registers `autojoin-sync presets` with its `email` and `form-style` subcommands. */
export function register(program: Command): void {
  const presets = program
    .command('presets')
    .description(
      'Read the customer invitation presets of the Invitation Service and print the JSON answer to ' +
        'stdout. Needs AUTOJOIN_ACCESS_TOKEN (the embedded emulator supplies its own).',
    )
    .addHelpText('after', EXAMPLES);
  presets
    .command('email')
    .description('email presets')
    .addHelpText('after', EXAMPLES)
    .command('list')
    .description('list the customer invitation email presets')
    .addOption(requestTimeoutOption())
    .addOption(emulatorOption())
    .addHelpText('after', EXAMPLES)
    .action((flags: PresetFlags) => withPresetClient(flags, (client) => client.listEmailPresets()));
  presets
    .command('form-style')
    .description('form style presets')
    .addHelpText('after', EXAMPLES)
    .command('get')
    .argument('<id>', 'the preset id')
    .description('get one customer invitation form style preset by id')
    .addOption(requestTimeoutOption())
    .addOption(emulatorOption())
    .addHelpText('after', EXAMPLES)
    .action((id: string, flags: PresetFlags) => withPresetClient(flags, (client) => client.getFormStylePreset(id)));
}

const EXAMPLES = `
Examples:
  $ autojoin-sync presets email list
  $ autojoin-sync presets form-style get fsp-default
  $ AUTOJOIN_BASE_URL=https://invitations.example.com AUTOJOIN_ACCESS_TOKEN=… autojoin-sync presets email list | jq '.[].id'

Exit codes: 0 printed · 1 error (no token, unknown preset, network)
`;

interface PresetFlags {
  emulator?: boolean;
  requestTimeout?: number;
}

/** Connects, runs one read, prints its result as 2-space JSON, and always disconnects. */
async function withPresetClient(flags: PresetFlags, read: (client: ServiceClient) => Promise<unknown>): Promise<void> {
  // The project file of `.`, for its base URL (AUTOJOIN_BASE_URL still wins); only its errors are shown.
  const report = (diagnostics: readonly Diagnostic[]): void => printDiagnostics(diagnostics.filter((d) => d.severity === 'error'));
  const { emulator, requestTimeout } = flags;
  // It reads no policy file: a monorepo's root, whose teams keep several project files, is one run's target as any.
  const settings = await resolveSettings({ cwd: process.cwd(), paths: ['.'], flags: { emulator, requestTimeout }, env: process.env, report, command: 'presets', manyProjects: true });
  await withConnection(cliConnection(settings), cliConnectionView(printNotice), async (client) => {
    writeStdout(`${JSON.stringify(await read(client), null, 2)}\n`);
  });
}
