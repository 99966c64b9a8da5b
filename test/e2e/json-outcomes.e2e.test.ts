/**
 * `--format json` prints one versioned JSON document on stdout on every outcome of plan and
 * apply: the plan, the diagnostics of invalid files (exit 1), the plan with its refusal
 * (exit 3), a stale saved plan (exit 4), an error (exit 1); each checked against its schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { REPO_ROOT } from '../action/support/run-action.js';
import { cli, policy, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from './support.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

const schema = (name: string): object => JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', name), 'utf8')) as object;
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(schema('plan.schema.json')).addSchema(schema('validate-report.schema.json'));
const validateResult = ajv.compile(schema('result.schema.json'));
const validatePlan = ajv.getSchema('https://autojoin-sync.dev/schemas/plan.schema.json');

interface Result {
  resultVersion: number;
  outcome: string;
  exitCode: number;
  message: string;
  diagnostics?: { file: string; line: number; code: string }[];
  refusals?: { limit: string; count: number; allowed: number; scopes: string[] }[];
  plan?: { changes: unknown[] };
}

/** Exactly one JSON document on stdout, valid against result.schema.json. */
function result(stdout: string): Result {
  const document = JSON.parse(stdout) as Result;
  expect(validateResult(document), JSON.stringify(validateResult.errors)).toBe(true);
  return document;
}

describe('--format json on every outcome', () => {
  it('plan: a schema-valid plan on success', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const run = await cli(['plan', '--format', 'json'], { cwd: project.dir, emulator });
    expect(run.code).toBe(0);
    expect(validatePlan?.(JSON.parse(run.stdout))).toBe(true);
  });

  it('plan and apply: the diagnostics of invalid files (exit 1)', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['gmail.com']) });
    for (const command of [['plan'], ['apply', '--yes']]) {
      const run = await cli([...command, '--format', 'json'], { cwd: project.dir, emulator });
      expect(run.code).toBe(1);
      const document = result(run.stdout);
      expect(document).toMatchObject({ resultVersion: 1, outcome: 'invalid', exitCode: 1 });
      expect(document.diagnostics?.[0]).toMatchObject({ file: 'a.autojoin.yaml', line: 5, code: 'webmail-domain' });
    }
  });

  it('a missing path: the diagnostics (exit 1)', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    const run = await cli(['plan', 'polices', '--format', 'json'], { cwd: project.dir, emulator });
    expect(run.code).toBe(1);
    expect(result(run.stdout)).toMatchObject({ outcome: 'invalid', diagnostics: [{ file: 'polices' }] });
  });

  it('apply: the plan with its refusal, limit, count and allowed (exit 3)', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'a', ['a1.example', 'a2.example', 'a3.example']);
    project = await tempProject({ 'a.autojoin.yaml': policy('a', []) });
    const run = await cli(['apply', '--yes', '--format', 'json', '--max-removals', '1'], { cwd: project.dir, emulator });
    expect(run.code).toBe(3);
    const document = result(run.stdout);
    expect(document.outcome).toBe('refused');
    expect(document.refusals).toEqual([expect.objectContaining({ limit: 'max-removals', count: 3, allowed: 1, scopes: ['team/a'] })]);
    expect(document.plan?.changes).toHaveLength(1);
  });

  it('apply --plan: a stale saved plan (exit 4) and an unreadable one (exit 1)', async () => {
    emulator = await startTestEmulator();
    project = await tempProject({ 'a.autojoin.yaml': policy('a', ['a.example']) });
    expect((await cli(['plan', '--out', 'plan.json'], { cwd: project.dir, emulator })).code).toBe(0);
    await setLive(emulator, 'a', ['moved.example']);
    const stale = await cli(['apply', '--plan', 'plan.json', '--yes', '--format', 'json'], { cwd: project.dir, emulator });
    expect(stale.code).toBe(4);
    expect(result(stale.stdout)).toMatchObject({ outcome: 'stale', exitCode: 4, plan: { changes: [expect.anything()] } });
    const missing = await cli(['apply', '--plan', 'nope.json', '--yes', '--format', 'json'], { cwd: project.dir, emulator });
    expect(missing.code).toBe(1);
    expect(result(missing.stdout)).toMatchObject({ outcome: 'error', exitCode: 1 });
    expect(missing.stderr).toContain('error: ');
  });
});
