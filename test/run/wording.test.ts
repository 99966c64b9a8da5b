/**
 * Messages of the core name settings as data (src/hint.ts); each front end words them: the CLI
 * as its flags (src/cli/cli-wording.ts), the action as its inputs (src/action/action-wording.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_FLAGS, hint, SETTINGS, useWording, worded, type Wording } from '../../src/hint.js';
import { cliWording } from '../../src/cli/cli-wording.js';
import { actionWording, ACTION_INPUTS } from '../../src/action/action-wording.js';
import { TooManyRemovalsError } from '../../src/plan/safety.js';
import { firstItems } from '../../src/text.js';

const neutral: Wording = (named) => (named.value === undefined ? named.setting : `${named.setting}: ${String(named.value)}`);

afterEach(() => useWording(neutral));

describe('each front end words a hint in its own terms', () => {
  it.each([
    [hint('maxRemovals'), '--max-removals', 'input max-removals'],
    [hint('maxRemovals', 12), '--max-removals 12', 'input max-removals: 12'],
    [hint('allowEmpty', true), '--allow-empty', 'input allow-empty: true'],
    [hint('prune', false), '--no-prune', 'input prune: false'],
    [hint('planFile'), '--plan', 'input plan-file'],
    [hint('takeOwnership', ['team/a', 'team/b']), '--take-ownership team/a --take-ownership team/b', 'input take-ownership: team/a, team/b'],
    [hint('requestTimeout'), '--request-timeout', "the CLI's --request-timeout"],
    // The action has no project input: it names a project by its directory, as its path input.
    [hint('project', 'teams/eng/autojoin-sync.yaml'), '--project teams/eng/autojoin-sync.yaml', 'input path: teams/eng'],
  ])('%o: the CLI says %s, the action %s', (given, cli, action) => {
    expect(cliWording(given)).toBe(cli);
    expect(actionWording(given)).toBe(action);
  });

  it('names every input it has as action.yml does (kebab case), and every flag starts with --', () => {
    for (const setting of SETTINGS) {
      expect(CLI_FLAGS[setting]).toMatch(/^--[a-z][a-z0-9-]*$/);
      const input = ACTION_INPUTS[setting];
      if (input !== null) expect(input).toMatch(/^[a-z][a-z0-9-]*$/);
    }
  });
});

describe('a message of the core', () => {
  it('is worded by the front end registered when it is made, and keeps its hints as data', () => {
    useWording(cliWording);
    const cli = new TooManyRemovalsError(3, 1, ['team/a']);
    useWording(actionWording);
    const action = new TooManyRemovalsError(3, 1, ['team/a']);
    expect(cli.message).toMatch(/\(--max-removals or safety\.maxRemovals\), from team\/a; to go ahead, run again with --max-removals 3$/);
    expect(action.message).toMatch(/\(input max-removals or safety\.maxRemovals\), from team\/a; to go ahead, run again with input max-removals: 3$/);
    expect(action.hints).toEqual([{ setting: 'maxRemovals', value: 3 }]);
  });

  it('interpolates anything that is not a hint as a template literal does', () => {
    useWording(cliWording);
    expect(worded`${2} of ${'x'}: ${hint('shard', '1/4')}`).toBe('2 of x: --shard 1/4');
  });
});

describe('firstItems', () => {
  it('names the first items, then how many more', () => {
    expect(firstItems(['a', 'b'], 2)).toBe('a, b');
    expect(firstItems(['a', 'b', 'c'], 2)).toBe('a, b and 1 more');
    expect(firstItems(['a', 'b', 'c'], 1, () => ', …')).toBe('a, …');
    expect(firstItems(['a', 'b', 'c'], 2, (n) => `; and ${n} more`, '; ')).toBe('a; b; and 1 more');
  });
});
