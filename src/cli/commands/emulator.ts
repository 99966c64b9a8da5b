/** `autojoin-sync emulator`: its flags translated into the command layer's request (src/commands/emulator-command.ts), and stopped on a signal. */
import { Command, Option } from 'commander';
import { EMULATOR_HELP, emulatorCommand, faultsRequest, type EmulatorRequest } from '../../commands/emulator-command.js';
import { RunError, ExitCode } from '../../output/exit-codes.js';
import { parseWholeNumber } from '../../run/numbers.js';
import { log } from '../../output/log.js';

interface EmulatorFlags {
  port: string;
  data?: string;
  latency?: string;
  faultRate?: string;
  faultSeed?: string;
  faults?: string;
  slowMs?: string;
  startMode: 'offset' | 'after';
  seedScopes?: string;
  seedInvitations?: string;
  seedDomains?: string;
  seed: string;
  domainTargets?: boolean;
  unpaginated?: boolean;
  byGroup: boolean;
  groups: boolean;
  postMetadata: 'keep' | 'replace' | 'ignore';
  maxInFlight?: string;
}

/** Registers `autojoin-sync emulator`: a local Invitation Service for trying things out and for tests. */
export function register(program: Command): void {
  program
    .command('emulator')
    .description(
      'Runs a local emulator of the Invitation Service on 127.0.0.1: all six calls and the two DELETE calls of the SDKs, auth, webmail rejection, ' +
        'pagination. Prints "listening on http://127.0.0.1:PORT" on stdout once it accepts requests; notices go to ' +
        'stderr. It accepts the key in AUTOJOIN_API_KEY and the token in AUTOJOIN_ACCESS_TOKEN, or the local defaults ' +
        `${EMULATOR_HELP.apiKey} / ${EMULATOR_HELP.accessToken} when they are unset. Stop it with Ctrl-C (SIGINT) or SIGTERM.`,
    )
    .option('--port <n>', 'port to listen on (0 picks a free one)', '8787')
    .option('--data <file>', 'JSON file to load the state from and save it to (default: memory only)')
    .option('--latency <ms>', 'answer each request this many milliseconds after it arrives (a read is handled within that time)')
    .option('--fault-rate <r>', 'probability in [0, 1] that a request gets an injected fault')
    .option('--fault-seed <n>', 'seed of the fault generator, for repeatable runs', '1')
    .option('--faults <list>', `comma-separated faults to draw from (default: all of ${EMULATOR_HELP.faults.join(',')})`)
    .option('--slow-ms <ms>', "how long the 'slow' fault delays an answer", '3000')
    .addOption(
      new Option('--start-mode <mode>', 'how listings read ?start=: 0-based offset, or the index after which the page begins')
        .choices(['offset', 'after'])
        .default('offset'),
    )
    .option('--max-in-flight <n>', 'answer 429 at once to a request arriving while N are in flight')
    .option('--seed-scopes <n>', 'generate N scopes (scope-0001, …) when there is no data file yet')
    .option('--seed-invitations <m>', 'ordinary invitations per generated scope', '0')
    .option('--seed-domains <k>', 'autojoin domains per generated scope', '0')
    .option('--seed <n>', 'seed of the data generator', '1')
    .option('--domain-targets', "list the autojoin invitation with {type: \"domain\"} targets (the real service has none; readers then skip call 2b)")
    .option('--unpaginated', 'answer every invitation of a scope in one page, ignoring ?start= (as the SDKs assume)')
    .option('--no-by-group', 'answer the deprecated by-group listing with 404, as after its removal')
    .option('--no-groups', 'answer invitations without groups and accepts, as the newer API reference shows call 2 / 2b')
    .addOption(
      new Option('--post-metadata <mode>', 'what a POST without metadata does to the stored metadata: keep it, replace it with none, or ignore (keep no metadata at all)')
        .choices(['keep', 'replace', 'ignore'])
        .default('keep'),
    )
    .addHelpText(
      'after',
      `
Example:
  $ autojoin-sync emulator --port 8787 --data .autojoin-sync/emulator.json --seed-scopes 3 --seed-domains 2
  listening on http://127.0.0.1:8787
  $ AUTOJOIN_BASE_URL=http://127.0.0.1:8787 autojoin-sync plan policies/`,
    )
    .action(async (flags: EmulatorFlags) => runEmulator(flags));
}

async function runEmulator(flags: EmulatorFlags): Promise<void> {
  const view = { notice: (line: string) => log().info(line), waiting: (message: string) => process.stderr.write(`${message}\n`) };
  const emulator = await emulatorCommand(emulatorRequest(flags, process.env), view);
  process.stdout.write(`listening on ${emulator.url}\n`);
  const signal = await untilSignal();
  process.stderr.write(`emulator: ${signal} received, stopping\n`);
  const { served, throttled } = await emulator.stop();
  process.stderr.write(`emulator: served ${served} requests (${throttled} answered 429)\n`);
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** @returns the request the flags make (the credentials come from the environment, in the command layer). */
function emulatorRequest(flags: EmulatorFlags, env: NodeJS.ProcessEnv): EmulatorRequest {
  return {
    env,
    port: integer('--port', flags.port, 65535),
    dataFile: flags.data,
    seed: seedOptions(flags),
    latencyMs: flags.latency === undefined ? undefined : integer('--latency', flags.latency, 600_000),
    faultRate: flags.faultRate === undefined ? undefined : rate(flags.faultRate),
    faultSeed: integer('--fault-seed', flags.faultSeed ?? '1', 2 ** 32 - 1),
    faults: flags.faults === undefined ? undefined : faultsRequest(flags.faults),
    slowMs: integer('--slow-ms', flags.slowMs ?? '3000', 600_000),
    startMode: flags.startMode,
    domainTargets: flags.domainTargets ?? false,
    unpaginated: flags.unpaginated ?? false,
    byGroup: flags.byGroup,
    groups: flags.groups,
    postMetadata: flags.postMetadata,
    maxInFlight: flags.maxInFlight === undefined ? undefined : integer('--max-in-flight', flags.maxInFlight, 100_000),
  };
}

function seedOptions(flags: EmulatorFlags): EmulatorRequest['seed'] {
  if (flags.seedScopes === undefined) return undefined;
  return {
    scopes: integer('--seed-scopes', flags.seedScopes, 100_000),
    invitationsPerScope: integer('--seed-invitations', flags.seedInvitations ?? '0', 100_000),
    domainsPerScope: integer('--seed-domains', flags.seedDomains ?? '0', 10_000),
    seed: integer('--seed', flags.seed, 2 ** 32 - 1),
  };
}

function integer(flag: string, raw: string, max: number): number {
  const value = parseWholeNumber(raw, 0, max);
  if (value === null) throw new RunError(`${flag} must be a whole number from 0 to ${max}, got "${raw}"`, ExitCode.error);
  return value;
}

function rate(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new RunError(`--fault-rate must be a number from 0 to 1, got "${raw}"`, ExitCode.error);
  }
  return value;
}
