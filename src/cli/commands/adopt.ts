/**
 * `autojoin-sync adopt`: writes the live state of scopes changed outside this repository into
 * their policy files, so the change can be reviewed as a pull request instead of reverted.
 */
import type { Command } from 'commander';
import { adoptCommand, adoptContext } from '../../commands/adopt-command.js';
import { log } from '../../output/log.js';
import { writeStdout } from '../../output/sinks.js';
import { escapeControls } from '../../escape.js';
import { notAdoptedReason, outsideLine } from '../../render/describe.js';
import { fileShownHere } from '../../render/shown-here.js';
import { plural } from '../../text.js';
import { addServiceOptions, takeOwnershipOption } from '../options.js';
import { refuseUnreadablePaths, withSession } from '../session.js';
import { cliSettings } from '../cli-settings.js';
import { planOrFail } from '../plan-or-fail.js';
import type { SettingFlags } from '../../run/settings.js';

interface AdoptFlags extends SettingFlags {
  takeOwnership?: string[];
}

/** Registers `autojoin-sync adopt`. */
export function register(program: Command): void {
  addServiceOptions(program.command('adopt'))
    .description(
      'Plan the policy files under PATH (default: the current directory) and write the live state of every scope ' +
        'changed outside this repository (drift) into its policy file, as a minimal edit: comments, key order, other ' +
        'documents and the entries that stay are kept. Commit the result as a pull request to keep the change; ' +
        'a scope changed both here and outside (a conflict) is listed, not written. Reads the service; writes only files.',
    )
    .argument('[path...]', 'policy files or directories (default: .)')
    .addOption(takeOwnershipOption())
    .addHelpText(
      'after',
      `
Examples:
  $ autojoin-sync adopt policies/ && git diff      # review what admins changed in the widget
  $ autojoin-sync adopt && autojoin-sync plan      # then: No changes

Exit codes: 0 adopted (or nothing to adopt) · 1 invalid policy files or another error`,
    )
    .action((paths: string[], flags: AdoptFlags) => runAdopt(paths, flags));
}

async function runAdopt(paths: string[], flags: AdoptFlags): Promise<void> {
  const settings = adoptContext(await cliSettings(paths, flags));
  await refuseUnreadablePaths(settings);
  await withSession(settings, async ({ client, target }) => {
    const plan = await planOrFail({ client, settings, target, flags, label: 'read' });
    const result = await adoptCommand({ context: settings, plan });
    const shownHere = (file: string): string => fileShownHere(file, settings.base);
    for (const entry of result.adopted) {
      writeStdout(`adopted ${escapeControls(entry.key)} into ${escapeControls(shownHere(entry.source.file))}:${entry.source.line}: ${escapeControls(outsideLine(entry.outside))}\n`);
    }
    for (const key of result.conflicts) log().warn(`not adopted: ${escapeControls(key)} changed here and outside (a conflict); edit its file by hand`);
    for (const entry of result.notAdopted) log().warn(`not adopted: ${escapeControls(entry.key)}: ${escapeControls(notAdoptedReason(entry, shownHere))}`);
    log().always(result.adopted.length === 0 ? 'Nothing to adopt: no policy file would change.' : `Adopted ${plural(result.adopted.length, 'scope')} into ${plural(result.files.length, 'file')}.`);
  });
}
