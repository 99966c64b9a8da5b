/**
 * `autojoin-sync presets email list` and `autojoin-sync presets form-style get ID`: read the
 * customer invitation presets (calls 3 and 4, bearer token) and print them as JSON.
 */
import type { Command } from 'commander';
import { loadProjectOrFail } from '../../run/project.js';
import type { ServiceClient } from '../../service/client.js';
import { withServiceClient } from '../../run/connect.js';
import { startEmbeddedEmulator } from '../../run/embedded.js';
import { printDiagnostics, printNotice } from '../session.js';

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
    .addHelpText('after', EXAMPLES)
    .action(() => withPresetClient((client) => client.listEmailPresets()));
  presets
    .command('form-style')
    .description('form style presets')
    .addHelpText('after', EXAMPLES)
    .command('get')
    .argument('<id>', 'the preset id')
    .description('get one customer invitation form style preset by id')
    .addHelpText('after', EXAMPLES)
    .action((id: string) => withPresetClient((client) => client.getFormStylePreset(id)));
}

const EXAMPLES = `
Examples:
  $ autojoin-sync presets email list
  $ autojoin-sync presets form-style get fsp-default
  $ AUTOJOIN_BASE_URL=https://invitations.example.com AUTOJOIN_ACCESS_TOKEN=… autojoin-sync presets email list | jq '.[].id'

Exit codes: 0 printed · 1 error (no token, unknown preset, network)
`;

/** Connects, runs one read, prints its result as 2-space JSON, and always disconnects. */
async function withPresetClient(read: (client: ServiceClient) => Promise<unknown>): Promise<void> {
  const cwd = process.cwd();
  await withServiceClient({ cwd, baseUrl: await projectBaseUrl(cwd), startEmbedded: startEmbeddedEmulator }, printNotice, async (client) => {
    process.stdout.write(`${JSON.stringify(await read(client), null, 2)}\n`);
  });
}

/** The base URL of autojoin-sync.yaml, if any (AUTOJOIN_BASE_URL still wins, in connect()). */
async function projectBaseUrl(cwd: string): Promise<string | undefined> {
  const config = await loadProjectOrFail(cwd, ['.'], (diagnostics) => printDiagnostics(diagnostics.filter((d) => d.severity === 'error')));
  return config.baseUrl;
}
