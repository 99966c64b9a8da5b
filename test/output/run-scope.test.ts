/**
 * A run's own values (src/run-values.ts, src/output/run-scope.ts): what a run is entered with, or
 * sets inside, stays in it; a nested run adds its secrets to the enclosing run's; outside any run
 * the process default is read, as before runs existed (no secret known: nothing is hidden).
 */
import { describe, expect, it } from 'vitest';
import { hint, projectFileName, useProjectFile, worded } from '../../src/hint.js';
import { createLogger, log, setLogger } from '../../src/output/log.js';
import { withRunScope } from '../../src/output/run-scope.js';
import { hasOutputSecrets, redactOutput, setOutputSecrets } from '../../src/output/sinks.js';

const A = 'sk_scope_outer_51ae0c';
const B = 'sk_scope_inner_9b27d4';

describe('withRunScope', () => {
  it('outside any run nothing is hidden until secrets are named, as before', () => {
    expect(hasOutputSecrets()).toBe(false);
    expect(redactOutput(`key ${A}`)).toBe(`key ${A}`);
    expect(projectFileName()).toBe('autojoin-sync.yaml');
    expect(worded`run with ${hint('maxRemovals', 3)}`).toBe('run with maxRemovals: 3');
  });

  it('a nested run hides the enclosing run\'s secrets and its own; outside, neither', async () => {
    const seen = await withRunScope({ secrets: [A] }, () =>
      withRunScope({ secrets: [B, undefined, ' '] }, async () => {
        await Promise.resolve();
        return redactOutput(`${A} ${B}`);
      }),
    );
    expect(seen).toBe('*** ***');
    expect(withRunScope({ secrets: [A] }, () => redactOutput(`${A} ${B}`))).toBe(`*** ${B}`);
    expect(redactOutput(`${A} ${B}`)).toBe(`${A} ${B}`);
  });

  it('what a run sets inside (its logger, its secrets, its project file) stays in it', async () => {
    const lines: string[] = [];
    const before = log();
    await withRunScope({}, async () => {
      setLogger(createLogger({ level: 'normal', write: (line) => lines.push(line) }));
      setOutputSecrets([A]);
      useProjectFile('infra/autojoin-sync.yaml');
      await Promise.resolve();
      log().info(`using ${A} from ${projectFileName()}`);
    });
    expect(lines).toEqual(['using *** from infra/autojoin-sync.yaml']);
    expect(log()).toBe(before);
    expect(hasOutputSecrets()).toBe(false);
    expect(projectFileName()).toBe('autojoin-sync.yaml');
  });

  it('a run\'s wording names its settings in its words, the process default elsewhere', () => {
    const words = withRunScope({ wording: (named) => `--${named.setting}`, projectFile: null }, () => worded`run with ${hint('prune')} in ${projectFileName()}`);
    expect(words).toBe('run with --prune in autojoin-sync.yaml');
    expect(worded`${hint('prune')}`).toBe('prune');
  });
});
