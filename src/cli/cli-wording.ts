/**
 * The CLI's words for the settings a message names (src/hint.ts): its flags. Registered by
 * runProgram (src/cli/dispatch.ts) before any command runs.
 */
import { CLI_FLAGS, type Hint, type Wording } from '../hint.js';


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
