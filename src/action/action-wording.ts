/**
 * The action's words for the settings a message names (src/hint.ts): its inputs (action.yml).
 * Registered by run() (src/action/main.ts) before anything runs.
 */
import { posix } from 'node:path';
import { CLI_FLAGS, valueText, type Hint, type Setting, type Wording } from '../hint.js';

/** Each setting's input; null for a setting only the CLI has (a message then names the CLI's flag as such). */
export const ACTION_INPUTS: Readonly<Record<Setting, string | null>> = {
  maxRemovals: 'max-removals',
  maxRemovalPercent: 'max-removal-percent',
  allowEmpty: 'allow-empty',
  prune: 'prune',
  read: 'read',
  requestTimeout: null,
  emulator: null,
  allowNoPolicies: 'allow-no-policies',
  pruneFrom: 'prune-from',
  changedSince: null,
  scope: 'scope',
  excludeScope: 'exclude-scope',
  replace: null,
  shard: 'shard',
  takeOwnership: 'take-ownership',
  allowBehind: 'allow-behind',
  componentId: null,
  planFile: 'plan-file',
  planSha256: 'plan-sha256',
  dnsServers: 'dns-servers',
  blame: null,
  // The action has no project input: a project is named by its directory, as input path.
  project: 'path',
};

/**
 * @returns the input of a hint: `input max-removals`, `input max-removals: 12`,
 *   `input take-ownership: team/a, team/b`; a CLI-only setting as `the CLI's --request-timeout`;
 *   a project file (`--project teams/eng/autojoin-sync.yaml`) as its directory: `input path: teams/eng`
 */
export const actionWording: Wording = ({ setting, value }: Hint): string => {
  const input = ACTION_INPUTS[setting];
  if (input === null) return `the CLI's ${CLI_FLAGS[setting]}`;
  if (setting === 'project' && typeof value === 'string') return `input ${input}: ${posix.dirname(value)}`;
  return value === undefined ? `input ${input}` : `input ${input}: ${valueText(value)}`;
};
