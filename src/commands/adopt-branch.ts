/**
 * The adopt branch of the action's `command: adopt`: the adopt edit on its own branch, pushed. The
 * branch starts again from the checked out commit on every run (it belongs to the action, so it is
 * force-pushed), so the pull request always shows today's outside changes against the default
 * branch, never a pile of old runs. Git runs with the workspace's own remote and credentials
 * (actions/checkout leaves them). In the command layer with the adopt command it follows, so the
 * action's git goes through the one door as a run's does.
 */
import { runGit } from '../git/command.js';

/** The branch `command: adopt` owns. */
export const ADOPT_BRANCH = 'autojoin-sync/adopt';

/** Who the adopt commit is by, as GitHub's own bot commits are. */
const BOT = { name: 'github-actions[bot]', email: '41898282+github-actions[bot]@users.noreply.github.com' };

/**
 * Commits `files` (paths relative to `workspace`) on {@link ADOPT_BRANCH}, starting at HEAD, and
 * force-pushes it to `origin`; the workspace is back on the branch (or the detached commit) it
 * had, its files as before.
 * @returns the new commit's id
 */
export async function pushAdoptBranch(workspace: string, files: readonly string[], message: string): Promise<string> {
  const git = async (...args: string[]): Promise<string> => (await runGit(args, { cwd: workspace, context: 'command adopt' })).toString('utf8').trim();
  const start = await git('rev-parse', 'HEAD');
  // The branch the workspace was on (actions/checkout on a push), to go back to it, not to a detached HEAD.
  const branch = await git('symbolic-ref', '-q', '--short', 'HEAD').catch(() => '');
  const identity = ['-c', `user.name=${BOT.name}`, '-c', `user.email=${BOT.email}`];
  await git('checkout', '-q', '-B', ADOPT_BRANCH);
  try {
    await git('add', '--', ...files);
    await git(...identity, 'commit', '-q', '--no-verify', '-m', message);
    const commit = await git('rev-parse', 'HEAD');
    await git('push', '-q', '--force', 'origin', `HEAD:refs/heads/${ADOPT_BRANCH}`);
    return commit;
  } finally {
    await git('checkout', '-q', ...(branch === '' ? ['--detach', start] : [branch]));
  }
}
