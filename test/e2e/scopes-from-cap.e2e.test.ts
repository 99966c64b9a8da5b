/** `import --scopes-from /dev/zero` (or any endless input) stops at a size cap with a clear error, instead of reading until V8's string limit. */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { cli, tempProject } from './support.js';
import { requires } from '../support/requires.js';

describe('import --scopes-from, given an endless input', () => {
  it('/dev/zero: exit 1 naming the cap, nothing written', async (context) => {
    requires(context, { present: existsSync('/dev/zero'), reason: 'this system has no /dev/zero' });
    const project = await tempProject({});
    try {
      const run = await cli(['import', '--scopes-from', '/dev/zero', '--out', 'imported', '--emulator'], { cwd: project.dir, timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('--scopes-from /dev/zero: more than 268435456 bytes: a scope list (or a saved plan) is never that long');
      expect(existsSync(`${project.dir}/imported`)).toBe(false);
    } finally {
      await project.cleanup();
    }
  });
});
