/**
 * A run's own values (src/run-values.ts, src/output/run-scope.ts): what a run is entered with, or
 * sets inside, stays in it; a nested run adds its secrets to the enclosing run's; outside any run
 * the process default is read, as before runs existed (no secret known: nothing is hidden).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import { hint, projectFileName, useProjectFile, worded } from '../../src/hint.js';
import { createLogger, log, setLogger } from '../../src/output/log.js';
import { withProcessRunScope, withRunScope } from '../../src/output/run-scope.js';
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

describe('withProcessRunScope (a process that is one run: the CLI\'s entry)', () => {
  it('outside any run, its values become the process\'s, through every await, without entering the storage', async () => {
    const enter = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const before = log();
    try {
      const seen = await withProcessRunScope({ secrets: [A], projectFile: 'infra/autojoin-sync.yaml' }, async () => {
        await Promise.resolve();
        setImmediate(() => undefined);
        return `${redactOutput(A)} ${projectFileName()}`;
      });
      expect(seen).toBe('*** infra/autojoin-sync.yaml');
      expect(redactOutput(A)).toBe('***');
      expect(enter).not.toHaveBeenCalled();
    } finally {
      enter.mockRestore();
      setOutputSecrets([]);
      useProjectFile(null);
      setLogger(before);
    }
    expect(redactOutput(A)).toBe(A);
  });

  it('inside a run, it is a run of its own nested in it, as withRunScope', async () => {
    const seen = await withRunScope({ secrets: [A] }, async () => {
      const inner = await withProcessRunScope({ secrets: [B] }, async () => {
        await Promise.resolve();
        return redactOutput(`${A} ${B}`);
      });
      return [inner, redactOutput(`${A} ${B}`)];
    });
    expect(seen).toEqual(['*** ***', `*** ${B}`]);
    expect(redactOutput(`${A} ${B}`)).toBe(`${A} ${B}`);
  });
});
