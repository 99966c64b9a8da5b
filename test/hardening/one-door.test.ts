/**
 * One door (issue 46; docs/ARCHITECTURE.md, "One door"): the front ends translate and render only.
 * src/cli and src/action import values only from the command layer (src/commands), the run
 * context (src/run), the renderers (src/render), the output sinks (src/output), their own folder
 * and a few leaf utilities; a type may come from anywhere (it runs nothing). This test parses the
 * imports of every front-end file and names each value that comes in past the door.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../support/imports.js';

/** The folders a front end may import values from (relative to src/), besides its own. */
export const DOOR_FOLDERS = ['commands/', 'run/', 'render/', 'output/'];

/**
 * Leaf utilities of src/'s top level: text and escaping, redaction, hints' wording, the version,
 * the environment's names, a scope key's spelling (TYPE/ID), the run's values (its run scope).
 */
export const LEAF_FILES = ['text.ts', 'escape.ts', 'redact.ts', 'hint.ts', 'version.ts', 'environment.ts', 'scope.ts', 'run-values.ts'];

/**
 * Values still imported past the door, by why each is not behind it yet (docs/ARCHITECTURE.md,
 * "One door"). Only ever shorter: the test fails on a new crossing, and on a listed one that is
 * gone (take it off the list).
 */
export const NOT_YET: Readonly<Record<string, readonly string[]>> = {
  'connecting: the session of a front end (the embedded emulator, the client notices) opens the service client; next: a command that owns the connection': [
    'src/action/steps.ts imports withServiceClient from src/connect/connect.ts',
    'src/cli/commands/presets.ts imports withServiceClient from src/connect/connect.ts',
    'src/cli/session.ts imports withServiceClient from src/connect/connect.ts',
    'src/cli/session.ts imports startEmbeddedEmulator from src/connect/embedded.ts',
    'src/cli/session.ts imports NoPoliciesError from src/policy/index.ts',
    'src/cli/session.ts imports unreadablePaths from src/policy/index.ts',
  ],
  "the action's refusal wording maps each refusal class to its job-summary row; next: map the verdict's refusal kinds (src/commands/verdict.ts) instead": [
    'src/action/refusal.ts imports PrunePercentError from src/plan/safety.ts',
    'src/action/refusal.ts imports RemovalPercentError from src/plan/safety.ts',
    'src/action/refusal.ts imports TooManyRemovalsError from src/plan/safety.ts',
    'src/action/refusal.ts imports UnintendedClearError from src/plan/safety.ts',
    'src/action/refusal.ts imports UnsafePlanError from src/plan/safety.ts',
    'src/action/refusal.ts imports StalePlanError from src/plan/refusals.ts',
    'src/action/refusal.ts imports OwnedElsewhereError from src/reconcile/ownership-refusal.ts',
    'src/action/refusal.ts imports BehindCheckoutError from src/history/behind.ts',
  ],
  "rendering that lives beside its data (a diagnostic's line, the inventory's tables); next: their home in src/render": [
    'src/action/findings.ts imports relativePosix from src/policy/index.ts',
    'src/action/steps.ts imports relativePosix from src/policy/index.ts',
    'src/action/steps.ts imports summarizeDiagnostics from src/policy/index.ts',
    'src/action/summary-markdown.ts imports formatDiagnostic from src/policy/index.ts',
    'src/cli/commands/fmt.ts imports formatDiagnostic from src/policy/index.ts',
    'src/cli/commands/validate.ts imports compareDiagnostics from src/policy/index.ts',
    'src/cli/commands/validate.ts imports NoPoliciesError from src/policy/index.ts',
    'src/cli/commands/validate.ts imports formatDiagnostic from src/policy/index.ts',
    'src/cli/commands/validate.ts imports summarizeDiagnostics from src/policy/index.ts',
    'src/cli/print.ts imports formatDiagnostic from src/policy/index.ts',
    'src/cli/commands/inventory.ts imports renderCsv from src/governance/inventory-rows.ts',
    'src/cli/commands/inventory.ts imports renderInventoryMarkdown from src/governance/inventory-text.ts',
    'src/cli/commands/who.ts imports renderWhoText from src/governance/inventory-text.ts',
  ],
  'translating flags and inputs: the constants their help names and the parsers of their values; next: the request parsers of src/commands/request-lists.ts': [
    'src/action/inputs.ts imports READ_MODES from src/service/read-mode.ts',
    'src/action/inputs.ts imports parseShard from src/plan/shard.ts',
    'src/cli/options.ts imports DEFAULT_READ_MODE from src/service/read-mode.ts',
    'src/cli/options.ts imports READ_MODES from src/service/read-mode.ts',
    'src/cli/options.ts imports DEFAULT_CONCURRENCY from src/service/defaults.ts',
    'src/cli/options.ts imports DEFAULT_REQUEST_TIMEOUT_SECONDS from src/service/defaults.ts',
    'src/cli/scopes-from.ts imports parsePlan from src/plan/index.ts',
    'src/cli/commands/import.ts imports entryExists from src/files.ts',
  ],
  "git of the action's own (the pull request's files, the adopt branch): GitHub's side, not a run's": [
    'src/action/adopt-branch.ts imports runGit from src/git/command.ts',
    'src/action/pr-findings.ts imports runGit from src/git/command.ts',
  ],
  "the emulator command is the emulator's own front end (a tool for tests and demos, not a run)": [
    'src/cli/commands/emulator.ts imports ALL_FAULTS from src/emulator/index.ts',
    'src/cli/commands/emulator.ts imports DEFAULT_ACCESS_TOKEN from src/emulator/index.ts',
    'src/cli/commands/emulator.ts imports DEFAULT_API_KEY from src/emulator/index.ts',
    'src/cli/commands/emulator.ts imports generateData from src/emulator/index.ts',
    'src/cli/commands/emulator.ts imports parseFaultKinds from src/emulator/index.ts',
    'src/cli/commands/emulator.ts imports startEmulator from src/emulator/index.ts',
  ],
};

/** @returns one line per value `file` (relative to src/) imports from outside the allow-list: `src/FILE imports NAME from src/TARGET` */
export function valuesPastTheDoor(file: string, text: string): string[] {
  const own = `${file.split('/')[0] ?? ''}/`;
  const found: string[] = [];
  const statements = text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s+['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/gu);
  for (const match of statements) {
    const specifier = match[4] ?? match[5] ?? match[6] ?? '';
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/u, '.ts')));
    if (target.startsWith(own) || DOOR_FOLDERS.some((folder) => target.startsWith(folder)) || LEAF_FILES.includes(target) || target.startsWith('../')) continue;
    if (match[2] !== undefined) continue;
    if (match[5] !== undefined || match[6] !== undefined) {
      found.push(`src/${file} imports src/${target}`);
      continue;
    }
    const clause = match[3] ?? '';
    const namespace = /^\*\s+as\s+([\w$]+)/u.exec(clause.trim());
    const names = namespace ? [`* as ${namespace[1] ?? ''}`] : [...clause.matchAll(/(?:^|[{,]\s*)(type\s+)?([A-Za-z_$][\w$]*)/gu)].filter((name) => name[1] === undefined).map((name) => name[2] ?? '');
    for (const name of names) found.push(`src/${file} imports ${name} from src/${target}`);
  }
  return found;
}

async function frontEndFiles(): Promise<string[]> {
  return (await sourceFiles(SRC)).map((file) => path.relative(SRC, file).split(path.sep).join('/')).filter((file) => /^(cli|action)\//u.test(file));
}

describe('one door', () => {
  it('names each value imported past the door; types, the door and the leaves pass (the check can fail)', () => {
    expect(valuesPastTheDoor('cli/commands/x.ts', "import { makePlan, type MakePlanOptions } from '../../reconcile/index.js';")).toEqual(['src/cli/commands/x.ts imports makePlan from src/reconcile/index.ts']);
    expect(valuesPastTheDoor('action/x.ts', "import {\n  parseShard as shard,\n} from '../plan/shard.js';\nimport * as git from '../git/command.js';")).toEqual([
      'src/action/x.ts imports parseShard from src/plan/shard.ts',
      'src/action/x.ts imports * as git from src/git/command.ts',
    ]);
    expect(valuesPastTheDoor('action/x.ts', "const m = await import('../policy/load.js');\nimport '../service/client.js';")).toEqual(['src/action/x.ts imports src/policy/load.ts', 'src/action/x.ts imports src/service/client.ts']);
    const allowed = "import type { Plan } from '../plan/types.js';\nimport { applyCommand } from '../commands/apply-command.js';\nimport { cutText } from '../redact.js';\nimport { core } from './runner.js';\nimport { log } from '../output/log.js';\nimport pkg from '../../package.json' with { type: 'json' };";
    expect(valuesPastTheDoor('action/x.ts', allowed)).toEqual([]);
  });

  it('src/cli and src/action import values only through the door', async () => {
    const files = await frontEndFiles();
    expect(files.length).toBeGreaterThan(40);
    const found: string[] = [];
    for (const file of files) found.push(...valuesPastTheDoor(file, await readFile(path.join(SRC, file), 'utf8')));
    const notYet = Object.values(NOT_YET).flat();
    expect(found.filter((line) => !notYet.includes(line))).toEqual([]);
    expect(notYet.filter((line) => !found.includes(line))).toEqual([]);
  });
});
