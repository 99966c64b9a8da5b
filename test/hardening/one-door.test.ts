/**
 * One door (issue 46; docs/ARCHITECTURE.md, "One door"): the front ends translate and render only.
 * src/cli and src/action import values only from the command layer (src/commands), the run
 * context (src/run), the renderers (src/render), the output sinks (src/output), their own folder
 * and a few leaf utilities; a type may come from anywhere (it runs nothing). This test parses the
 * imports of every front-end file and names each value that comes in past the door: none does.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../support/imports.js';

/** The folders a front end may import values from (relative to src/), besides its own. */
export const DOOR_FOLDERS = ['commands/', 'run/', 'render/', 'output/'];

/**
 * Leaf utilities of src/'s top level: text and escaping, redaction, hints' wording, the version,
 * the environment's names, a scope key's spelling (TYPE/ID), the run's values (its run scope), a
 * file's name relative to a directory.
 */
export const LEAF_FILES = ['text.ts', 'escape.ts', 'redact.ts', 'hint.ts', 'version.ts', 'environment.ts', 'scope.ts', 'run-values.ts', 'relative-path.ts'];

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
    expect(found).toEqual([]);
  });
});
