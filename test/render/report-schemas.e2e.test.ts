/**
 * The documents for machines validate against their published schemas: `apply --format json`
 * (schemas/apply-report.schema.json) and `validate --format json` (schemas/validate-report.schema.json),
 * from the spawned CLI and, for outcomes an emulator run cannot easily produce, from the renderer.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { applyReportDocument } from '../../src/render/index.js';
import { cli, liveDomains, policy, setLive, startTestEmulator, tempProject, useEmulatorProject, type TempProject } from '../e2e/support.js';
import { REPO_ROOT } from '../action/support/run-action.js';
import { buildPlan } from '../support/plan.js';
import { live, liveMap, noAutojoin, NOW, policy as desired, TARGET } from '../plan/fixtures.js';

let emulator: Emulator;
let project: TempProject;
useEmulatorProject(() => ({ emulator, project }));

function validator(name: string): (value: unknown) => string | null {
  const schema = JSON.parse(readFileSync(`${REPO_ROOT}/schemas/${name}`, 'utf8')) as object;
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
  return (value) => (validate(value) ? null : JSON.stringify(validate.errors));
}

const checkApplyReport = validator('apply-report.schema.json');
const checkValidateReport = validator('validate-report.schema.json');

describe('apply --format json', () => {
  it('prints one schema-valid document on stdout: change, outcome and live domains after; the plan goes to stderr', async () => {
    emulator = await startTestEmulator();
    await setLive(emulator, 'old', ['old.example', 'keep.example']);
    project = await tempProject({
      'a.autojoin.yaml': policy('new', ['new.example']),
      'b.autojoin.yaml': policy('old', ['keep.example']),
      'c.autojoin.yaml': policy('same', []),
    });
    const run = await cli(['apply', '--yes', '--format', 'json'], { cwd: project.dir, emulator });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { formatVersion: number; scopes: { key: string; outcome: string; liveDomains: string[] }[]; summary: object };
    expect(checkApplyReport(report)).toBeNull();
    expect(report.formatVersion).toBe(1);
    expect(report.summary).toEqual({ applied: 2, failed: 0, skipped: 0, unchanged: 1 });
    expect(report.scopes.map((s) => [s.key, s.outcome, s.liveDomains])).toEqual([
      ['team/old', 'applied', ['keep.example']],
      ['team/new', 'applied', ['new.example']],
    ]);
    expect(liveDomains(emulator.data(), 'old')).toEqual(['keep.example']);
    expect(run.stderr).toContain('1 to create, 1 to update');

    const again = await cli(['apply', '--yes', '--format', 'json', '--quiet'], { cwd: project.dir, emulator });
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toMatchObject({ summary: { applied: 0, unchanged: 3 }, scopes: [] });
    expect(checkApplyReport(JSON.parse(again.stdout))).toBeNull();
  });

  it('describes failed (with the reason, and what the service stored when known) and skipped scopes', () => {
    const plan = buildPlan({
      desired: [desired('team/a', ['a.example']), desired('team/b', ['c.example']), desired('team/c', ['d.example'])],
      live: liveMap(noAutojoin('team/a'), live('team/b', ['b.example']), noAutojoin('team/c')),
      target: TARGET,
      now: NOW,
    });
    const document = applyReportDocument(plan, {
      applied: [],
      failed: [
        { key: 'team/a', kind: 'create', reason: '[POST] /api/v1/invitations/autojoin: 500' },
        { key: 'team/b', kind: 'update', reason: 'service stored [x.example], expected [c.example]', liveDomains: ['x.example'] },
      ],
      skipped: [{ key: 'team/c', reason: 'interrupted' }],
    });
    expect(checkApplyReport(document)).toBeNull();
    expect(document.scopes.map((s) => [s.key, s.outcome, s.liveDomains])).toEqual([
      ['team/b', 'failed', ['x.example']],
      ['team/a', 'failed', null],
      ['team/c', 'skipped', []],
    ]);
    expect(checkApplyReport({ ...document, scopes: [{ ...document.scopes[0], reason: undefined }] })).not.toBeNull();
  });
});

describe('validate --format json', () => {
  it('prints a schema-valid document with every diagnostic', async () => {
    project = await tempProject({
      'a.autojoin.yaml': policy('a', ['acme.com', 'eng.acme.com']),
      'b.autojoin.yaml': policy('b', ['gmail.com', 'co.uk']).replace('componentId', 'componentid'),
      'c.autojoin.yaml': 'scope: [\n',
    });
    const run = await cli(['validate', '--format', 'json'], { cwd: project.dir });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { diagnostics: { severity: string }[] };
    expect(checkValidateReport(report)).toBeNull();
    expect(report).toMatchObject({ formatVersion: 1, files: ['a.autojoin.yaml', 'b.autojoin.yaml', 'c.autojoin.yaml'], policies: 1 });
    expect(new Set(report.diagnostics.map((d) => d.severity))).toEqual(new Set(['error', 'warning']));
  });
});
