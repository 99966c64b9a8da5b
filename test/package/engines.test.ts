/**
 * `npm ci` on the oldest Node the package supports (engines.node, 20.19) installs every locked
 * package without an EBADENGINE warning: no dependency, dev or not, needs a newer Node.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
const nodeRange = (name: string): string | undefined => {
  const engines = lock.packages[name]?.engines;
  return engines && !Array.isArray(engines) ? engines.node : undefined;
};

type Version = [number, number, number];
const version = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map(Number);
  return [major, minor, patch];
};
const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Does `node` satisfy the range? npm's forms: `A || B`, each a set of comparators (`>=X.Y`, `<=X`, `^X.Y.Z`, `X`, `X.x`, `*`). */
function satisfies(node: Version, range: string): boolean {
  return range.split('||').some((part) =>
    part
      .trim()
      .replace(/([<>=^~]+)\s+/gu, '$1')
      .replace(/\.[x*]/gu, '')
      .split(/\s+/u)
      .every((comparator) => {
        const match = /^([<>]=?|\^|=)?v?([\d.]*)$/u.exec(comparator);
        if (comparator === '*' || comparator === '') return true;
        if (!match) throw new Error(`an engines.node range this test cannot read: ${range}`);
        const given = (match[2] as string).split('.').length;
        const bound = version(match[2] as string);
        const order = compare(node, bound);
        switch (match[1]) {
          case '>=':
            return order >= 0;
          case '>':
            return order > 0;
          case '<=':
            return order <= 0;
          case '<':
            return order < 0;
          case '^':
            return node[0] === bound[0] && order >= 0;
          default:
            return node.slice(0, given).join('.') === bound.slice(0, given).join('.');
        }
      }),
  );
}

const oldest = version((/^>=\s*([\d.]+)$/u.exec(nodeRange('') ?? '')?.[1] ?? '0'));

describe('the locked packages', () => {
  it('support the oldest Node of engines.node', () => {
    expect(oldest).toEqual([20, 19, 0]);
    expect(satisfies(oldest, '>=22')).toBe(false);
    expect(satisfies(oldest, '^18.18.0 || ^20.9.0 || >=21.1.0')).toBe(true);
    expect(satisfies(oldest, '18 || 20 || >=22')).toBe(true);
    expect(satisfies(oldest, '^20.20.0 || >=22')).toBe(false);
    const newer = Object.entries(lock.packages).flatMap(([name, entry]) => {
      const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      return range === undefined || satisfies(oldest, range) ? [] : [`${name} needs Node ${range}`];
    });
    expect(newer).toEqual([]);
  });
});
