import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ownString } from '../../src/text.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** @returns heap bytes kept by what `keep` returns for 200 domains each cut from a file of ~100 KB. */
function keptBytes(keep: (domain: string) => string): number {
  let kept: string[] | null = [];
  for (let n = 0; n < 200; n++) {
    const file = JSON.parse(JSON.stringify(`# file ${n}\n`.repeat(8_000) + `  - d1.scope-${n}.example\n`)) as string;
    kept.push(keep(file.slice(file.lastIndexOf('- ') + 2, -1)));
  }
  gc();
  const withKept = process.memoryUsage().heapUsed;
  expect(kept[199]).toBe('d1.scope-199.example');
  kept = null;
  gc();
  return withKept - process.memoryUsage().heapUsed;
}

describe('ownString', () => {
  it('is the same text, ASCII or not, short or long', () => {
    for (const text of ['', 'a.io', 'd1.scope-0001.example', 'bücher.example.com', 'x'.repeat(300), '\u{1F600}.example.org']) {
      expect(ownString(text)).toBe(text);
    }
  });

  it('does not keep the text a domain was cut from (a policy file), as a plain slice does', () => {
    expect(keptBytes((domain) => domain)).toBeGreaterThan(10_000_000);
    expect(keptBytes(ownString)).toBeLessThan(1_000_000);
  });
});
