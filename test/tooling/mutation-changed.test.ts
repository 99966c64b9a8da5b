/** scripts/mutation-changed.mjs: the score per module from Stryker's JSON report, and every floor names a listed module. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FLOOR, FLOORS, scoresOf } from '../../scripts/mutation-changed.mjs';
import { MUTATE } from '../../stryker.config.mjs';
import { existsSync } from 'node:fs';

describe('mutation-changed', () => {
  it('scores a module as killed and timed out over those that ran or had no test (static and ignored ones left out)', () => {
    const statuses = ['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'CompileError'];
    const report = { files: { 'src/plan/merge.ts': { mutants: statuses.map((status) => ({ status })) } } };
    expect(scoresOf(report).get('src/plan/merge.ts')).toEqual({ score: 60, mutants: 5, survived: 2 });
  });

  it('lists only modules that exist, and holds each to a floor between 0 and 100', () => {
    expect(MUTATE.filter((file) => !existsSync(file))).toEqual([]);
    expect(Object.keys(FLOORS).filter((file) => !MUTATE.includes(file))).toEqual([]);
    for (const floor of [...Object.values(FLOORS), DEFAULT_FLOOR]) expect(floor).toBeGreaterThanOrEqual(0);
  });
});
