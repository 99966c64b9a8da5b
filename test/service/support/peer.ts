/** Starting an emulator and a client bound to it, with retry delays short enough for tests. */
import { startEmulator, generateData, type Emulator, type EmulatorOptions, type GenerateOptions } from '../../../src/emulator/index.js';
import { createClient, type ClientOptions, type ServiceClient } from '../../../src/service/index.js';
import type { Invitation, ListingCall } from '../../../src/service/types.js';
import type { ScopeRef } from '../../../src/scope.js';

/** Retry timing for tests: the same policy shape, milliseconds instead of seconds. */
export const FAST_RETRY = { minDelayMs: 2, maxDelayMs: 20 } as const;

export interface Peer {
  emulator: Emulator;
  client: ServiceClient;
  notices: string[];
  close(): Promise<void>;
}

/** Starts an emulator (optionally seeded with generateData) and a client with both credentials. */
export async function startPeer(
  options: EmulatorOptions & { generate?: Partial<GenerateOptions> } = {},
  clientOptions: Partial<ClientOptions> = {},
): Promise<Peer> {
  const { generate, ...emulatorOptions } = options;
  const data = generate
    ? generateData({ scopes: 1, invitationsPerScope: 0, domainsPerScope: 0, seed: 1, ...generate })
    : emulatorOptions.data;
  const emulator = await startEmulator({ ...emulatorOptions, data });
  const notices: string[] = [];
  const client = createClient({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    accessToken: emulator.accessToken,
    retry: FAST_RETRY,
    onNotice: (message) => notices.push(message),
    ...clientOptions,
  });
  return {
    emulator,
    client,
    notices,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}

/** The first generated scope (generateData names them scope-0001, … of type team). */
export const SCOPE_1 = { scopeType: 'team', scope: 'scope-0001' } as const;

/**
 * Every invitation of a scope's listing, walked as the state reader walks it
 * (`client.listInvitationPages`, the one listing walk production calls).
 */
export async function listAll(client: ServiceClient, listing: ListingCall, ref: ScopeRef): Promise<Invitation[]> {
  const all: Invitation[] = [];
  for await (const page of client.listInvitationPages(listing, ref)) all.push(...page);
  return all;
}
