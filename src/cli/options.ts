/** Options shared by the commands: the global output flags, and those of the commands that talk to the service. */
import { RunError } from '../output/exit-codes.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { MAX_CONCURRENCY, MAX_REQUEST_TIMEOUT_SECONDS, parseWholeNumber } from '../run/numbers.js';
import { DEFAULT_CONCURRENCY, DEFAULT_READ_MODE, DEFAULT_REQUEST_TIMEOUT_SECONDS, READ_MODES } from '../run/setting-values.js';
import { colorEnabled, logLevel, setLogger, stderrLogger } from '../output/log.js';
import { runValue } from '../run-values.js';

/**
 * `--read autojoin|by-scope|by-group`: how live state is read. No commander default: when left
 * out, src/run/settings.ts falls back to AUTOJOIN_READ, `read:` in the project file, then DEFAULT_READ_MODE.
 */
export function readOption(): Option {
  return new Option(
    '--read <mode>',
    `how live state is read: autojoin (call 2b alone, one request a scope), by-scope (call 1b, then 2b) or by-group (call 1, then 2b); ` +
      `else AUTOJOIN_READ, else read: in autojoin-sync.yaml, else ${DEFAULT_READ_MODE}`,
  ).choices(READ_MODES);
}

/** `--listing`: the old name of `--read`, accepted for one release. */
export function listingOption(): Option {
  return new Option('--listing <mode>', 'old name of --read (accepted for one release)').choices(READ_MODES);
}

/** `--concurrency N`: requests in flight at once (1–256); no commander default, src/run/settings.ts has it. */
export function concurrencyOption(): Option {
  return new Option('--concurrency <n>', `requests in flight at once (default ${DEFAULT_CONCURRENCY})`).argParser(parseConcurrency);
}

function parseConcurrency(text: string): number {
  const value = parseWholeNumber(text, 1, MAX_CONCURRENCY);
  if (value === null) throw new InvalidArgumentError(`expected a whole number from 1 to ${MAX_CONCURRENCY}.`);
  return value;
}

/** @returns a factory of a flag without a value: each command gets its own Option (commander keeps state on it). */
function switchOption(flags: string, description: string): () => Option {
  return () => new Option(flags, description);
}

/** `--emulator`: run against the embedded local emulator, in CI too (common to every command that talks to the service). */
export const emulatorOption = switchOption(
  '--emulator',
  'run against the embedded local emulator (state in .autojoin-sync/emulator.json at the repository root), even in CI or with AUTOJOIN_API_KEY set',
);

/** `--allow-no-policies`: paths without any policy file are not an error (e.g. to prune every scope). */
export const allowNoPoliciesOption = switchOption('--allow-no-policies', 'go ahead when the paths hold no policy file (e.g. to prune every scope)');

/** `--prune`: pruning is on by default; the flag is still accepted (and beats `prune: false` of the project file). */
export const pruneOption = switchOption(
  '--prune',
  'clear every scope a policy file declared in git history (any commit reachable from HEAD, every side of every merge) that no file in the working tree declares now; on by default (needs the full history: fetch-depth: 0)',
);

/** `--no-prune`: turns pruning off, whatever `prune` in the project file says. */
export const noPruneOption = switchOption(
  '--no-prune',
  'do not prune (as prune: false in autojoin-sync.yaml); the plan then says how many scopes history holds that no file declares',
);

/**
 * `--format <format>`: how a command writes its result.
 * @param choices the formats, the default first
 */
export function formatOption(choices: readonly string[], description = 'output format'): Option {
  return new Option('--format <format>', description).choices(choices).default(choices[0]);
}

/** `--take-ownership TYPE/ID` (repeatable): write, or clear when pruned, a scope another owner's marker (or none) claims. */
/** `--allow-behind TYPE/ID` (repeatable, globs, `*`): write scopes whose marker's commit this checkout does not contain. */
export function allowBehindOption(): Option {
  return new Option(
    '--allow-behind <TYPE/ID>',
    "write this scope although its marker was written from a commit this checkout does not contain (globs such as team/*; '*' re-anchors every marker after a history rewrite); repeatable",
  ).argParser(collect);
}

export function takeOwnershipOption(): Option {
  return new Option(
    '--take-ownership <TYPE/ID>',
    'take this scope over from another owner (its autojoin-sync.owner marker), or let pruning clear it when it carries no marker; repeatable',
  )
    .argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .default(undefined);
}

/** The global flags every command takes, as the hook received them. */
interface OutputFlags {
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
  /** `-C DIR`: run as if started in DIR. */
  C?: string;
  /** `--project FILE`: the project file, whatever is nearer. */
  project?: string;
  /** The name of the command run (not a flag: the hook records it), as messages name it. */
  command?: string;
}

/** The command's global flags, this run's own (src/run-values.ts: the in-process tests run many commands in one process). */
const runOutputFlags = runValue<OutputFlags>({});

/**
 * Adds the global flags --quiet, --verbose and --no-color (shown in every command's --help) and
 * sets up the logger from them (and AUTOJOIN_LOG) before a command runs.
 */
export function addOutputOptions(program: Command): Command {
  return program
    .addOption(new Option('-q, --quiet', 'results only: no notices, summaries or progress (warnings and errors still shown)').conflicts('verbose'))
    .addOption(new Option('-v, --verbose', 'also one stderr line per HTTP request: method, path, status, ms, retry (never a header or body)'))
    .addOption(new Option('--no-color', 'no colour (as NO_COLOR=1 does; FORCE_COLOR=1 forces colour off a terminal)'))
    .addOption(new Option('-C <dir>', 'run as if started in DIR (as git -C): paths, --out and --plan are relative to it'))
    .addOption(new Option('--project <file>', 'read only the policy files whose nearest project file is FILE (one team of a monorepo); the others are skipped'))
    .hook('preAction', (_program, command) => {
      const outputFlags = command.optsWithGlobals<OutputFlags>();
      runOutputFlags.set({ ...outputFlags, command: command.name() });
      // This run's logger (src/cli/dispatch.ts entered the run): no other run in the process sees it.
      setLogger(stderrLogger(logLevel(outputFlags, process.env)));
      if (outputFlags.C !== undefined) changeDirectory(outputFlags.C);
    });
}

/** `-C DIR`: the front end's one change of the working directory, before the command resolves its context. */
function changeDirectory(dir: string): void {
  try {
    process.chdir(dir);
  } catch (error) {
    throw new RunError(`-C ${dir}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (error as Error).message}`);
  }
}

/** `-C DIR` and `--project FILE` as given (undefined when not), and the name of the command run. */
export function contextFlags(): { chdir?: string; project?: string; command?: string } {
  const outputFlags = runOutputFlags.get();
  return {
    ...(outputFlags.C === undefined ? {} : { chdir: outputFlags.C }),
    ...(outputFlags.project === undefined ? {} : { project: outputFlags.project }),
    ...(outputFlags.command === undefined ? {} : { command: outputFlags.command }),
  };
}

/** @types/node says `isTTY: boolean`, but a piped stream has none (undefined). */
function isTerminal(stream: { isTTY?: boolean }): boolean {
  return stream.isTTY === true;
}

/** @returns whether stdout gets colour: --no-color, FORCE_COLOR, NO_COLOR, TERM and the terminal, as clig.dev says. */
export function useColor(): boolean {
  return colorEnabled({ flag: runOutputFlags.get().color, env: process.env, isTTY: isTerminal(process.stdout) });
}

/** `--request-timeout SECONDS`: total deadline of each request attempt (default 30, or AUTOJOIN_REQUEST_TIMEOUT). */
export function requestTimeoutOption(): Option {
  return new Option('--request-timeout <seconds>', `deadline of each request attempt, headers and body (default ${DEFAULT_REQUEST_TIMEOUT_SECONDS}; env AUTOJOIN_REQUEST_TIMEOUT)`).argParser(
    parseRequestTimeout,
  );
}

function parseRequestTimeout(text: string): number {
  const value = parseWholeNumber(text, 1, MAX_REQUEST_TIMEOUT_SECONDS);
  if (value === null) throw new InvalidArgumentError(`expected a whole number of seconds from 1 to ${MAX_REQUEST_TIMEOUT_SECONDS}.`);
  return value;
}

/** Adds the flags of every command that reads the service: --read (and --listing), --concurrency, --request-timeout, --emulator. */
export function addServiceOptions(command: Command): Command {
  return command.addOption(readOption()).addOption(listingOption()).addOption(concurrencyOption()).addOption(requestTimeoutOption()).addOption(emulatorOption());
}

/** Adds one value to a repeatable flag's list (`--scope a --scope b`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Adds `--scope TYPE/ID` and `--exclude-scope TYPE/ID` (each repeatable): narrow the run as Terraform's -target does. */
export function addTargetOptions(command: Command): Command {
  return command
    .addOption(new Option('--scope <TYPE/ID>', 'only this scope, e.g. team/eng-api (repeatable; one no policy file declares is an error)').argParser(collect))
    .addOption(new Option('--exclude-scope <TYPE/ID>', 'leave this scope out (repeatable)').argParser(collect));
}

/** `--replace TYPE/ID` (repeatable): write the scope even when nothing differs, as Terraform's -replace. */
export function replaceOption(): Option {
  return new Option('--replace <TYPE/ID>', 'write this scope even when nothing differs, e.g. after a componentId change (repeatable)').argParser(collect);
}

/** `--shard K/N`: only shard K of N (a stable split of the scopes, for CI matrices). */
export function shardOption(): Option {
  return new Option('--shard <K/N>', 'only shard K of N (a stable split of the scopes, for CI matrices)');
}

/** `--max-removal-percent P`: beats safety.maxRemovalPercent of the project file. */
export function maxRemovalPercentOption(): Option {
  return new Option('--max-removal-percent <p>', 'most domains a scope may lose, in percent of its live list (beats safety.maxRemovalPercent)').argParser(
    parsePercent,
  );
}

function parsePercent(text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 100) throw new InvalidArgumentError('expected a number from 0 to 100.');
  return value;
}

/** The DNS check's flags as commander hands them over (src/run/dns.ts reads them). */
export interface DnsFlags {
  dns?: boolean;
  dnsServer?: string[];
  dnsStrict?: boolean;
}

/** Adds --dns, --dns-server (repeatable) and --dns-strict: domain trust over DNS. */
export function addDnsOptions(command: Command): Command {
  return command
    .addOption(new Option('--dns', 'also look every domain up in DNS (as dns.check in autojoin-sync.yaml): NXDOMAIN is an error, no MX and no A/AAAA a warning'))
    .addOption(
      new Option('--dns-server <host[:port]>', 'resolver to ask (repeatable; implies --dns); else dns.servers, AUTOJOIN_DNS_SERVERS, the system\'s')
        .argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(new Option('--dns-strict', 'a DNS timeout or resolver failure is an error, not a warning (implies --dns)'));
}

/** @returns the DNS flags as the run layer's request. */
export function dnsRequest(flags: DnsFlags): { dns?: boolean; servers?: string[]; strict?: boolean } {
  return { dns: flags.dns, servers: flags.dnsServer, strict: flags.dnsStrict };
}
