/** Closing what a test opened (emulator peers, hostile servers, clients), however the test ends. */
import { afterEach } from 'vitest';

/** Anything a test opens and must close. */
export interface Closable {
  close(): Promise<unknown>;
}

/**
 * Registers an afterEach that closes, newest first, everything passed to the returned function
 * during the test (so a client closes before the server it talks to).
 * @returns `closeAfterTest(resource)`, which registers `resource` and returns it
 */
export function useCleanup(): <T extends Closable>(resource: T) => T {
  const open: Closable[] = [];
  afterEach(async () => {
    for (const resource of open.splice(0).reverse()) await resource.close();
  });
  return (resource) => {
    open.push(resource);
    return resource;
  };
}
