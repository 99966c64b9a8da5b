/**
 * The inventory command over the run context (src/cli/commands/inventory.ts): every scope and
 * domain entry as rows, with `--blame` the commit, author and date of each entry's line, and the
 * columns they have, in order. The front end renders the rows as CSV, JSON or markdown.
 */
import { blameFiles, blameOfLine } from '../governance/blame.js';
import { BLAME_COLUMNS, INVENTORY_COLUMNS, inventoryRows, type BlamedRow, type InventoryRow } from '../governance/inventory-rows.js';
import type { Diagnostic } from '../policy/types.js';
import { placedPolicies, type ListingContext } from './placed-policies.js';

export interface InventoryCommand {
  context: ListingContext;
  /** `--blame`: each row with who added its line (one `git blame` per file). */
  blame: boolean;
}

export interface InventoryOutcome {
  rows: BlamedRow[];
  /** The rows' columns, in the order CSV and markdown show them: with `--blame`, commit, author and date last. */
  columns: readonly (keyof BlamedRow)[];
  /** The policy files' errors: when there is one, no row. */
  errors: Diagnostic[];
}

export async function inventoryCommand(command: InventoryCommand): Promise<InventoryOutcome> {
  const { policies, errors } = await placedPolicies(command.context);
  const columns = command.blame ? [...INVENTORY_COLUMNS, ...BLAME_COLUMNS] : INVENTORY_COLUMNS;
  if (errors.length > 0) return { rows: [], columns, errors };
  const rows = inventoryRows(policies);
  return { rows: command.blame ? await withBlame(rows, command.context.base) : rows, columns, errors: [] };
}

async function withBlame(rows: readonly InventoryRow[], cwd: string): Promise<BlamedRow[]> {
  const blamed = await blameFiles([...new Set(rows.map((row) => row.file))], cwd);
  return rows.map((row) => ({ ...row, ...(blameOfLine(blamed.get(row.file), row.line) ?? { commit: '', author: '', date: '' }) }));
}
