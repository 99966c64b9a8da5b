/**
 * One way to name a diagnostic's files from elsewhere (src/render/shown-here.ts): its own file and
 * every file its message names, as the CLI (from the working directory) and the action (from the
 * workspace) show them; JSON documents keep the message and leave the parts out.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { duplicateScopeDiagnostics } from '../../src/policy/lint.js';
import { renamedDiagnostics, shownHere } from '../../src/render/shown-here.js';
import { reportedDiagnostics } from '../../src/render/diagnostics.js';
import { inWorkspace } from '../../src/action/steps.js';
import { scopeKey } from '../../src/scope.js';
import { defined } from '../support/defined.js';

const KEY = scopeKey({ scopeType: 'team', scope: 'a' });
const TWICE = duplicateScopeDiagnostics([
  { key: KEY, source: { file: 'teams/a/a.autojoin.yaml', line: 1, column: 1 } },
  { key: KEY, source: { file: 'teams/b/b.autojoin.yaml', line: 5, column: 1 } },
  { key: KEY, source: { file: 'c.autojoin.yaml', line: 9, column: 3 } },
]);
const ROOT = join('/', 'repo');

describe('renamedDiagnostics', () => {
  it('renames the file and every file the message names, and words the message again', () => {
    const [first] = renamedDiagnostics(TWICE, (file) => `<${file}>`);
    expect(defined(first).file).toBe('<teams/a/a.autojoin.yaml>');
    expect(defined(first).message).toBe('duplicate scope team/a: also declared at <teams/b/b.autojoin.yaml>:5:1, <c.autojoin.yaml>:9:3; a scope may have only one policy');
  });

  it('words a message as built when nothing is renamed, and renames twice as once', () => {
    expect(defined(TWICE[0]).message).toBe('duplicate scope team/a: also declared at teams/b/b.autojoin.yaml:5:1, c.autojoin.yaml:9:3; a scope may have only one policy');
    const twice = renamedDiagnostics(renamedDiagnostics(TWICE, (file) => `x/${file}`), (file) => `y/${file}`);
    expect(defined(twice[1]).message).toBe('duplicate scope team/a: also declared at y/x/teams/a/a.autojoin.yaml:1:1, y/x/c.autojoin.yaml:9:3; a scope may have only one policy');
  });

  it('shownHere: from teams/b, each path from there; from the root, the diagnostics as they are', () => {
    const here = shownHere(TWICE, ROOT, join(ROOT, 'teams', 'b'));
    expect(here.map((d) => `${d.file}: ${d.message}`)).toEqual([
      '../a/a.autojoin.yaml: duplicate scope team/a: also declared at b.autojoin.yaml:5:1, ../../c.autojoin.yaml:9:3; a scope may have only one policy',
      'b.autojoin.yaml: duplicate scope team/a: also declared at ../a/a.autojoin.yaml:1:1, ../../c.autojoin.yaml:9:3; a scope may have only one policy',
      '../../c.autojoin.yaml: duplicate scope team/a: also declared at ../a/a.autojoin.yaml:1:1, b.autojoin.yaml:5:1; a scope may have only one policy',
    ]);
    expect(shownHere(TWICE, ROOT, ROOT)).toBe(TWICE);
  });

  it("the action's job summary names them from the workspace, the repository checked out below it", () => {
    const load = inWorkspace({ policies: [], policyCount: 0, files: [], diagnostics: TWICE }, { base: join(ROOT, 'checkout') }, { workspace: ROOT });
    expect(defined(load.diagnostics[2]).message).toBe('duplicate scope team/a: also declared at checkout/teams/a/a.autojoin.yaml:1:1, checkout/teams/b/b.autojoin.yaml:5:1; a scope may have only one policy');
  });

  it('a JSON document holds the message and not its parts', () => {
    expect(reportedDiagnostics(TWICE).map((d) => Object.keys(d).sort())).toEqual(Array(3).fill(['code', 'column', 'file', 'line', 'message', 'severity']));
  });
});
