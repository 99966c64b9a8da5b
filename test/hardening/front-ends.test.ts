/**
 * The front ends hold no pipeline (issue 32): src/cli and src/action reach the plan, the apply,
 * the policy loader and the other pipelines of a command only through the command layer
 * (src/commands/), never by importing them. A type may still be imported: it runs nothing.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles } from '../support/imports.js';

/** The modules of the pipelines a command runs (relative to src/). */
const PIPELINE_MODULES = [
  'reconcile/make-plan.ts',
  'reconcile/desired.ts',
  'reconcile/apply-plan.ts',
  'reconcile/import-scopes.ts',
  'reconcile/adopt-drift.ts',
  'apply/apply-changes.ts',
  'policy/load.ts',
  'plan/plan-builder.ts',
  'plan/merge.ts',
];

/** The pipeline functions, under whatever module (an index) re-exports them. */
const PIPELINE_NAMES = new Set([
  'makePlan',
  'desiredScopes',
  'applyPlan',
  'applyChanges',
  'importScopes',
  'adoptDrift',
  'loadPolicies',
  'streamPolicies',
  'streamPoliciesInWorker',
  'readPolicySources',
  'parsePolicySources',
  'discoverPolicyFiles',
  'formatPolicyText',
  'planBuilder',
  'mergePlanParts',
]);

/** @returns one line per import of `file` (relative to src/) that reaches a pipeline past the command layer */
export function pipelineImports(file: string, text: string): string[] {
  const found: string[] = [];
  const statements = text.matchAll(/(?:^|\n)\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s+['"](\.[^'"]+)['"]|\bimport\s*\(\s*['"](\.[^'"]+)['"]\s*\)/gu);
  for (const match of statements) {
    const specifier = match[4] ?? match[5] ?? '';
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/u, '.ts')));
    const typeOnly = match[2] !== undefined;
    const names = [...(match[3] ?? '').matchAll(/(?:^|[{,]\s*)(type\s+)?([A-Za-z_$][\w$]*)/gu)].filter((name) => name[1] === undefined).map((name) => name[2] ?? '');
    if (!typeOnly && PIPELINE_MODULES.includes(target) && (names.length > 0 || match[5] !== undefined)) found.push(`src/${file} imports src/${target}`);
    for (const name of typeOnly ? [] : names.filter((each) => PIPELINE_NAMES.has(each))) found.push(`src/${file} imports ${name} from src/${target}`);
  }
  return found;
}

describe('the front ends hold no pipeline', () => {
  it('names an import of a pipeline, by module or by name; a type import is allowed (the check can fail)', () => {
    expect(pipelineImports('cli/commands/x.ts', "import { makePlan } from '../../reconcile/index.js';")).toEqual(['src/cli/commands/x.ts imports makePlan from src/reconcile/index.ts']);
    expect(pipelineImports('action/x.ts', "import {\n  applyPlan as run,\n  type ApplyPlanOptions,\n} from '../reconcile/apply-plan.js';")).toEqual([
      'src/action/x.ts imports src/reconcile/apply-plan.ts',
      'src/action/x.ts imports applyPlan from src/reconcile/apply-plan.ts',
    ]);
    expect(pipelineImports('action/x.ts', "const m = await import('../policy/load.js');")).toEqual(['src/action/x.ts imports src/policy/load.ts']);
    expect(pipelineImports('action/x.ts', "import type { Drifted } from '../reconcile/adopt-drift.js';\nimport { type ImportedScope } from '../reconcile/import-scopes.js';")).toEqual([]);
  });

  it('src/cli and src/action import no pipeline: they call src/commands', async () => {
    const files = (await sourceFiles(SRC)).map((file) => path.relative(SRC, file).split(path.sep).join('/')).filter((file) => /^(cli|action)\//u.test(file));
    expect(files.length).toBeGreaterThan(40);
    const found: string[] = [];
    for (const file of files) found.push(...pipelineImports(file, await readFile(path.join(SRC, file), 'utf8')));
    expect(found).toEqual([]);
  });
});
