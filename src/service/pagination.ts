/**
 * The listing walk (calls 1 and 1b).
 *
 * The interface says: a page holds exactly 20 invitations, `start` defaults to 0, and "to get
 * the next 20 the value is set to 19, 39, 59 and so on". That sentence has two readings:
 *  - offset: `start` is a 0-based index; start=19 returns items 19..38, so consecutive pages
 *    overlap by one item (item 19 was already the last of the first page);
 *  - after:  `start` names the item after which the page begins; start=19 returns 20..39,
 *    no overlap.
 * Walking 0, 19, 39, … covers every item under both readings: offset pages are [0,20),
 * [19,39), [39,59) … and after pages are [0,20), [20,40), [40,60) …, contiguous either way.
 * De-duplicating by id removes the one-item overlap of the offset reading. Under both
 * readings only the last page can hold fewer than 20, so a short page ends the walk; and a
 * full page always brings at least 19 new ids, so a page with no new id can only come from a
 * server that ignores `start` (it would repeat itself forever): that ends the walk too. A
 * page of more than 20 comes from a server that does not paginate at all (no SDK sends
 * `start`, and a big scope may come back whole): it holds everything, so it ends the walk.
 * A page cap stops a server that never ends, with an error rather than a silent partial read.
 */
import { ServiceError } from './errors.js';
import { PAGE_SIZE, type Invitation } from './types.js';

/** @returns the `start` value of page `index` (0, 19, 39, 59, …). */
export function pageStart(index: number): number {
  return index === 0 ? 0 : index * PAGE_SIZE - 1;
}

export interface WalkOptions {
  maxPages: number;
  /** Method and path (without query) named in the page-cap error. */
  method: string;
  path: string;
}

/**
 * Walks a listing page by page.
 * @param fetchPage reads the page at `start`
 * @yields per page, only the invitations not seen on an earlier page (never an empty array)
 * @throws ServiceError 'too-many-pages' when the listing has not ended after `maxPages` pages
 */
export async function* walkPages(
  fetchPage: (start: number) => Promise<Invitation[]>,
  options: WalkOptions,
): AsyncGenerator<Invitation[]> {
  const seen = new Set<string>();
  for (let index = 0; ; index++) {
    if (index >= options.maxPages) throw pageCapError(options);
    const page = await fetchPage(pageStart(index));
    const fresh = notSeenBefore(page, seen);
    if (fresh.length > 0) yield fresh;
    if (page.length !== PAGE_SIZE || fresh.length === 0) return;
  }
}

/** @returns the invitations of `page` whose id is not in `seen` (nor earlier on the page), adding them to it. */
function notSeenBefore(page: readonly Invitation[], seen: Set<string>): Invitation[] {
  const fresh: Invitation[] = [];
  for (const invitation of page) {
    if (seen.has(invitation.id)) continue;
    seen.add(invitation.id);
    fresh.push(invitation);
  }
  return fresh;
}

function pageCapError(options: WalkOptions): ServiceError {
  return new ServiceError({
    code: 'too-many-pages',
    method: options.method,
    path: options.path,
    detail: `the listing did not end within ${options.maxPages} pages (${options.maxPages * PAGE_SIZE} invitations); raise maxPages if the scope really has more invitations`,
  });
}
