/**
 * The core speaks data, the front ends speak flags. A message of src/plan, src/reconcile,
 * src/service, src/policy or src/run that tells the user what to set names the setting as a
 * {@link Hint} (`{ setting: 'maxRemovals', value: 12 }`), never as a flag. Each front end has one
 * {@link Wording}, its table from setting to its own words, and names it as it enters the run
 * (`withRunScope`, src/output/run-scope.ts; each run has its own, src/run-values.ts):
 * the CLI says `--max-removals 12` (src/cli/cli-wording.ts), the action `input max-removals: 12`
 * (src/action/action-wording.ts). Without one (benches, programs that embed the core) a hint names the
 * setting's key.
 *
 * To add a hint: the setting's name in {@link SETTINGS} if it is new (the key of SettingFlags in
 * src/run/settings.ts, or of the front ends' options), its words in both tables, and
 * `` worded`… ${hint('name', value)} …` `` where the message is made.
 */
import { bindRunValue, runValue, type RunBinding } from './run-values.js';

/** Every setting a message may name: the keys of SettingFlags (src/run/settings.ts), then the run's other options. */
export const SETTINGS = [
  'maxRemovals',
  'maxRemovalPercent',
  'allowEmpty',
  'prune',
  'read',
  'requestTimeout',
  'emulator',
  'allowNoPolicies',
  'pruneFrom',
  'changedSince',
  'scope',
  'excludeScope',
  'replace',
  'shard',
  'takeOwnership',
  'allowBehind',
  'componentId',
  'planFile',
  'planSha256',
  'dnsServers',
  'blame',
  'project',
] as const;

export type Setting = (typeof SETTINGS)[number];

/** Each setting's CLI flag: the CLI's words (src/cli/cli-wording.ts), and the action's for a setting it has no input for. */
export const CLI_FLAGS: Readonly<Record<Setting, string>> = {
  maxRemovals: '--max-removals',
  maxRemovalPercent: '--max-removal-percent',
  allowEmpty: '--allow-empty',
  prune: '--prune',
  read: '--read',
  requestTimeout: '--request-timeout',
  emulator: '--emulator',
  allowNoPolicies: '--allow-no-policies',
  pruneFrom: '--prune-from',
  changedSince: '--changed-since',
  scope: '--scope',
  excludeScope: '--exclude-scope',
  replace: '--replace',
  shard: '--shard',
  takeOwnership: '--take-ownership',
  allowBehind: '--allow-behind',
  componentId: '--component-id',
  planFile: '--plan',
  planSha256: '--plan-sha256',
  dnsServers: '--dns-server',
  blame: '--blame',
  project: '--project',
};

/**
 * A setting a message names. Without `value` it names the setting (`--max-removals`); with one it
 * says what to give (`--max-removals 12`; `false` turns a switch off: `--no-prune`; a list gives
 * the setting once per item).
 */
export interface Hint {
  readonly setting: Setting;
  readonly value?: string | number | boolean | readonly string[];
}

/** A front end's words for a hint. */
export type Wording = (hint: Hint) => string;

/** @returns the hint naming `setting`, with the value to give it if any. */
export function hint(setting: Setting, value?: Hint['value']): Hint {
  return value === undefined ? { setting } : { setting, value };
}

/** Without a front end's words, a hint names its setting's key (`maxRemovals: 12`). */
const keyWording: Wording = (named) => (named.value === undefined ? named.setting : `${named.setting}: ${valueText(named.value)}`);

/** The words of the current run's front end (src/run-values.ts). */
const runWording = runValue<Wording>(keyWording);

/** Sets the current run's wording (outside any run, the process's): every message made after this names its settings in its words. */
export function useWording(wording: Wording): void {
  runWording.set(wording);
}

/** @returns the binding of a run's wording, for `withRunScope` (src/output/run-scope.ts) */
export function wordingBinding(wording: Wording): RunBinding {
  return bindRunValue(runWording, wording);
}

/**
 * A message in the running front end's words: a tagged template whose {@link Hint} values are
 * worded, anything else interpolated as usual.
 * @example worded`to go ahead, run again with ${hint('maxRemovals', 12)}`
 */
export function worded(strings: TemplateStringsArray, ...values: unknown[]): string {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += (isHint(value) ? runWording.get()(value) : String(value)) + (strings[index + 1] ?? '');
  });
  return text;
}

/** The project file of the current run, as its preamble names it (path from the repository root). */
const runProjectFile = runValue('autojoin-sync.yaml');

/**
 * Names the current run's project file (src/run/settings.ts, once the context is resolved; each
 * run has its own, src/run-values.ts): every hint that names a project setting names that file.
 * Null: the run has none (a new one is named).
 */
export function useProjectFile(path: string | null): void {
  runProjectFile.set(path ?? 'autojoin-sync.yaml');
}

/** @returns the binding of a run's project file (null: none), for `withRunScope` (src/output/run-scope.ts) */
export function projectFileBinding(path: string | null): RunBinding {
  return bindRunValue(runProjectFile, path ?? 'autojoin-sync.yaml');
}

/** @returns the project file hints name: the run's (`infra/autojoin/autojoin-sync.yaml`), else `autojoin-sync.yaml`. */
export function projectFileName(): string {
  return runProjectFile.get();
}

/** @returns one hint in the running front end's words. */
export function wordHint(named: Hint): string {
  return runWording.get()(named);
}

function isHint(value: unknown): value is Hint {
  return typeof value === 'object' && value !== null && typeof (value as Hint).setting === 'string' && SETTINGS.includes((value as Hint).setting);
}

/** @returns a hint's value as one word list: `12`, `team/a, team/b`. */
export function valueText(value: NonNullable<Hint['value']>): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}
