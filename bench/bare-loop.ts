/**
 * The bare client the steady-state and reconcile rows compare against: `concurrency` workers over
 * one undici pool of that size, each sending the next request as soon as its last answer is read;
 * it checks the status only, and retries a 429 at once (it has no pacing: the floor, not a rival).
 *
 * Run in the bench's own process (`bareLoop`, warm: its undici code has already run), or as the
 * entry of a fresh Node process of its own (bare-process.ts bundles and starts it).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';

/** One request of the bare client. */
export interface BareRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** Sends every request, `concurrency` at a time; @throws on any status but 200 (after 429s). */
export async function bareLoop(baseUrl: string, requests: readonly BareRequest[], concurrency: number, apiKey: string): Promise<void> {
  const agent = new Agent({ connections: concurrency });
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  let cursor = 0;
  const worker = async (): Promise<void> => {
    while (cursor < requests.length) {
      const next = requests[cursor++] as BareRequest;
      for (;;) {
        const answer = await request(baseUrl + next.path, { dispatcher: agent, method: next.method, headers, body: next.body });
        await answer.body.arrayBuffer();
        if (answer.statusCode === 429) continue;
        if (answer.statusCode !== 200) throw new Error(`bare client: ${next.method} ${next.path} answered ${answer.statusCode}`);
        break;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await agent.close();
  }
}

// As the entry of its own process (bare-process.ts): URL CONCURRENCY LISTS-FILE (a JSON array of request lists, sent in turn).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [baseUrl, concurrency, list] = process.argv.slice(2) as [string, string, string];
  for (const requests of JSON.parse(readFileSync(list, 'utf8')) as BareRequest[][]) await bareLoop(baseUrl, requests, Number(concurrency), process.env.BARE_API_KEY ?? '');
}
