/**
 * Which marker commits are in this checkout's history (design, "Behind and foreign checkouts"):
 * a marker's `autojoin-sync.commit` must be an ancestor of HEAD (or HEAD itself) for a run to
 * write or clear its scope. All the commits of a run are checked in ONE git call: `git rev-list
 * HEAD` streams HEAD's history and stops as soon as every commit asked about was seen (the last
 * apply is usually near HEAD, so that is early). A commit not seen is not an ancestor: behind,
 * foreign, or, in a shallow clone, cut off (then `shallow` says so, from a second call made only
 * in that case). A run that walked HEAD's whole history already (pruning, or counting what pruning
 * would clear: src/history/walk.ts) is answered from that walk, without git.
 */
import { runGit, startGit } from './command.js';

/** The commits of a walk of HEAD's whole history (src/history/walk.ts): HEAD and every ancestor. */
export interface WalkedHistory {
  head: string;
  has(commit: string): boolean;
}

export interface Ancestry {
  /** The commits asked about that are not HEAD nor an ancestor of it (git cannot find them, or they are another history's). */
  notAncestors: Set<string>;
  /** True when the repository is a shallow clone and some commit was not found: its history is cut short. */
  shallow: boolean;
}

/** Stops the walk once every commit was seen. */
class AllSeen extends Error {}

/**
 * @param dir a directory of the repository
 * @param commits full commit ids (40 or 64 hex); anything else counts as not an ancestor
 * @param walked the run's walk of this HEAD's history, when pruning made one: answers without git
 *   (the walk refuses a shallow clone, so nothing it answers is cut off)
 */
export async function ancestryOf(dir: string, commits: Iterable<string>, walked?: WalkedHistory): Promise<Ancestry> {
  const wanted = new Set([...commits].map((commit) => commit.toLowerCase()));
  const notAncestors = new Set([...wanted].filter((commit) => !/^[0-9a-f]{40}([0-9a-f]{24})?$/u.test(commit)));
  const pending = new Set([...wanted].filter((commit) => !notAncestors.has(commit)));
  if (walked) for (const commit of pending) if (!walked.has(commit)) notAncestors.add(commit);
  if (pending.size === 0 || walked) return { notAncestors, shallow: false };
  let rest = '';
  const git = startGit(['rev-list', 'HEAD'], {
    cwd: dir,
    context: 'ownership markers',
    onData: (chunk) => {
      const lines = (rest + chunk.toString('latin1')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) pending.delete(line);
      if (pending.size === 0) throw new AllSeen();
    },
  });
  git.end();
  await git.done.catch((error: unknown) => {
    if (!(error instanceof AllSeen)) throw error;
  });
  pending.delete(rest);
  for (const commit of pending) notAncestors.add(commit);
  return { notAncestors, shallow: pending.size > 0 && (await isShallow(dir)) };
}

async function isShallow(dir: string): Promise<boolean> {
  const answer = await runGit(['rev-parse', '--is-shallow-repository'], { cwd: dir, context: 'ownership markers' });
  return answer.toString('utf8').trim() === 'true';
}
