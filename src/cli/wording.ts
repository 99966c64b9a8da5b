/**
 * The CLI's words for the settings a message names (src/hint.ts): its flags. Registered by
 * runProgram (src/cli/dispatch.ts) before any command runs.
 */
import type { Hint, Setting, Wording } from '../hint.js';

/** Each setting's flag. */
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
  componentId: '--component-id',
  planFile: '--plan',
  planSha256: '--plan-sha256',
  dnsServers: '--dns-server',
  blame: '--blame',
};

/**
 * @returns the flag of a hint: `--max-removals`, `--max-removals 12`, `--allow-empty` (true),
 *   `--no-prune` (false), `--take-ownership a --take-ownership b` (a list)
 */
export const cliWording: Wording = ({ setting, value }: Hint): string => {
  const flag = CLI_FLAGS[setting];
  if (value === undefined || value === true) return flag;
  if (value === false) return `--no-${flag.slice(2)}`;
  if (Array.isArray(value)) return value.map((item) => `${flag} ${item}`).join(' ');
  return `${flag} ${String(value)}`;
};
