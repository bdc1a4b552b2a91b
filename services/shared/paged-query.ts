import type { Knex } from 'knex';
import { decodeCursor, type CursorPosition } from '../../lib/pagination/cursor.js';
import { DEFAULT_PAGE_SIZE } from '../../lib/pagination/page.js';

/** A row of a table paginated by (created_at, id). */
export interface PagedRow {
  id: string;
  created_at: Date | string;
}

export const rowPosition = (r: PagedRow): CursorPosition => ({ createdAt: new Date(r.created_at), id: r.id });

/**
 * `q` ordered oldest first by (created_at, id), past the cursor's row, one row beyond the page
 * (lib/pagination/page.ts pageOf tells from it whether a next page exists). created_at is written
 * from the application's clock, in milliseconds like the cursor, so no row is read twice.
 */
export function pagedQuery<Q extends Knex.QueryBuilder>(q: Q, page: { limit?: number; cursor?: string }): { query: Q; limit: number } {
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  q.orderBy('created_at').orderBy('id').limit(limit + 1);
  if (page.cursor) {
    const after = decodeCursor(page.cursor);
    q.whereRaw('(created_at, id) > (?, ?)', [after.createdAt, after.id]);
  }
  return { query: q, limit };
}
