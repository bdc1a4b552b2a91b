/**
 * One page of a list paginated by cursor (API.md leaves the wrapper to the service; every list of
 * this API answers the same one): `items`, and `nextCursor` to pass as `cursor` for the next page,
 * null on the last. A list without a page would answer a partner's every row at once: thousands of
 * issuers for an ERP's partner, and no bound on the answer's size.
 */
import { encodeCursor, type CursorPosition } from './cursor.js';

export const DEFAULT_PAGE_SIZE = 50;

/** The query parameters of a page (fastest-validator; they also feed the OpenAPI document). */
export const pageParams = {
  limit: { type: 'number', integer: true, min: 1, max: 100, convert: true, optional: true, default: DEFAULT_PAGE_SIZE },
  cursor: { type: 'string', min: 1, max: 200, optional: true, description: 'nextCursor da página anterior.' },
} as const;

export interface Page<V> {
  items: V[];
  nextCursor: string | null;
}

/** `rows` read with limit + 1 (the extra row says whether a next page exists). */
export function pageOf<T, V>(rows: readonly T[], limit: number, position: (row: T) => CursorPosition, view: (row: T) => V): Page<V> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(view), nextCursor: rows.length > limit && last ? encodeCursor(position(last)) : null };
}

/** The OpenAPI schema of a page of `item`. */
export function pageDoc(item: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'object', additionalProperties: false, required: ['items', 'nextCursor'],
    properties: { items: { type: 'array', items: item }, nextCursor: { type: ['string', 'null'], description: 'Vai em cursor para a próxima página; null na última.' } },
  };
}
