/**
 * Fault injection. Each request draws from a seeded generator on arrival, so a run with the
 * same seed and the same request order gets the same faults. A fault replaces the request's
 * effect: 500/503/429/reset/truncated never change state (a faulted POST stores nothing, and a
 * truncated answer is computed as a dry run). `slow` is the one exception: the request is
 * served in full, only late, as a slow live service would; a slow write answered past the
 * client's request deadline is stored though the client saw no answer (its outcome unknown to
 * the client, src/service/retry.ts mayHaveReached), as is any write a client gives up on.
 */
import type { FaultKind } from './types.js';
import { randomIndex, seededRandom, type Random } from './prng.js';

/** Every fault the emulator can inject (the default set). */
export const ALL_FAULTS: readonly FaultKind[] = ['500', '503', '429', 'reset', 'slow', 'truncated'];

export interface FaultDraw {
  kind: FaultKind;
  /** Seconds for the Retry-After header of a 429 (0 or 1). */
  retryAfterSeconds: number;
}

export interface FaultSource {
  /** @returns the fault for the next request, or null when it is served normally. */
  next(): FaultDraw | null;
}

/** @returns a fault source; with rate 0 (the default) no request is ever faulted. */
export function createFaultSource(options: { rate?: number; kinds?: readonly FaultKind[]; seed?: number }): FaultSource {
  const rate = options.rate ?? 0;
  const kinds = options.kinds && options.kinds.length > 0 ? options.kinds : ALL_FAULTS;
  const random: Random = seededRandom(options.seed ?? 1);
  return {
    next() {
      if (rate <= 0) return null;
      if (random() >= rate) return null;
      const kind = kinds[randomIndex(random, kinds.length)] as FaultKind;
      return { kind, retryAfterSeconds: randomIndex(random, 2) };
    },
  };
}

/** @returns the fault kinds named in a comma-separated list; throws on an unknown name. */
export function parseFaultKinds(list: string): FaultKind[] {
  const names = list.split(',').map((name) => name.trim()).filter((name) => name !== '');
  for (const name of names) {
    if (!ALL_FAULTS.includes(name as FaultKind)) {
      throw new Error(`unknown fault "${name}"; expected some of ${ALL_FAULTS.join(', ')}`);
    }
  }
  return names as FaultKind[];
}
