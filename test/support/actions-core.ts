/**
 * A fake of the `@actions/core` calls the action makes, for tests that run the action's `run()`
 * in-process: `vi.mock('@actions/core', () => core)` with
 * `const core = await vi.hoisted(async () => (await import('../support/actions-core.js')).fakeActionsCore())`.
 */
import { vi } from 'vitest';

export function fakeActionsCore() {
  const summary = { addRaw: vi.fn(), write: vi.fn() };
  summary.addRaw.mockReturnValue(summary);
  summary.write.mockResolvedValue(summary);
  return {
    getInput: vi.fn<(name: string) => string>(),
    setOutput: vi.fn<(name: string, value: string) => void>(),
    setFailed: vi.fn<(message: string) => void>(),
    setSecret: vi.fn<(secret: string) => void>(),
    info: vi.fn<(message: string) => void>(),
    notice: vi.fn(),
    warning: vi.fn(),
    error: vi.fn(),
    debug: vi.fn(),
    summary,
  };
}
