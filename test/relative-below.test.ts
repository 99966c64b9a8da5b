/**
 * relativeBelow (src/files.ts) is path.relative's common case without path.relative, used by
 * relativePosix (every file name a diagnostic or a plan shows) and isInside (every read's
 * containment check): both must give exactly what path.relative gives, for any pair of paths,
 * normal or not, inside or outside, absolute or relative.
 */
import fc from 'fast-check';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInside, relativeBelow } from '../src/files.js';
import { relativePosix } from '../src/relative-path.js';

/** The definitions, as they were before the fast path. */
function relativePosixByDefinition(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return (relative === '' ? '.' : relative).split(path.sep).join('/');
}
function isInsideByDefinition(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

const segment = fc.constantFrom('', '.', '..', 'a', 'ab', 'a.b', '..a', 'a..', '.git', 'é', 'a b', 'repo', 'repo2', 'policies');
const anyPath = fc.tuple(fc.boolean(), fc.array(segment, { maxLength: 5 }), fc.boolean()).map(([absolute, parts, slash]) => `${absolute ? '/' : ''}${parts.join('/')}${slash ? '/' : ''}`);
/** A directory and a path built below, beside or above it, so that every case is common. */
const pair = fc.oneof(
  fc.tuple(anyPath, anyPath),
  fc.tuple(anyPath, fc.array(segment, { maxLength: 4 })).map(([dir, below]) => [dir, [dir, ...below].join('/')] as [string, string]),
  fc.tuple(anyPath, anyPath).map(([dir, other]) => [dir, `${dir}${other}`] as [string, string]),
);

describe('path.relative without path.relative', () => {
  it('relativePosix and isInside give what path.relative gives, for any two paths', () => {
    fc.assert(
      fc.property(pair, ([dir, file]) => {
        expect(relativePosix(dir, file)).toBe(relativePosixByDefinition(dir, file));
        expect(isInside(dir, file)).toBe(isInsideByDefinition(dir, file));
      }),
      { numRuns: 5000 },
    );
  });

  it('answers the common case itself, and leaves the others to path.relative', () => {
    expect(relativeBelow('/repo', '/repo/policies/a.autojoin.yaml')).toBe('policies/a.autojoin.yaml');
    expect(relativeBelow('/repo', '/repo')).toBe('');
    expect(relativeBelow('/', '/repo/a')).toBe('repo/a');
    for (const [dir, file] of [['/repo', '/repo2/a'], ['/repo', '/other/a'], ['/repo/', '/repo/a'], ['/repo', '/repo/../a'], ['/repo', '/repo/./a'], ['/repo', '/repo//a'], ['repo', 'repo/a'], ['/repo/x', '/repo']]) {
      expect(relativeBelow(dir as string, file as string)).toBeUndefined();
    }
  });
});
