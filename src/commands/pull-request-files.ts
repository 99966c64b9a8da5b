/**
 * The files a pull request changed: those that differ from its base commit (the event's
 * `pull_request.base.sha`), found with one git call in the workspace, so its own findings are
 * shown first (src/action/pr-findings.ts). Outside a pull request, or when git cannot tell (a
 * shallow clone without the base), none.
 */
import { runGit } from '../git/command.js';

/** Where to look: the pull request's base commit (undefined outside one) and the workspace. */
export interface PullRequestCheckout {
  pullBase?: string | undefined;
  workspace: string;
}

/** @returns the files (relative to the workspace, `/`-separated) that differ from the pull request's base; empty when unknown */
export async function pullRequestFiles(checkout: PullRequestCheckout): Promise<ReadonlySet<string>> {
  if (checkout.pullBase === undefined) return new Set();
  try {
    const output = await runGit(['diff', '--name-only', '-z', '--no-renames', '--relative', checkout.pullBase, '--'], { cwd: checkout.workspace, context: 'the files the pull request changed' });
    return new Set(output.toString('utf8').split('\0').filter((file) => file !== ''));
  } catch {
    return new Set();
  }
}
