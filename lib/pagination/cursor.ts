/**
 * Opaque cursor of the paginated lists (documents, issuers, transfer requests): the (createdAt, id)
 * of the last item, in the list's order. Stable under inserts, unlike page numbers. A malformed
 * cursor is a 400, never a 500.
 */
import { DomainError } from '../errors/index.js';
import { isIdShaped } from '../validation/uuid.js';

export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(p: CursorPosition): string {
  return Buffer.from(`${p.createdAt.toISOString()}|${p.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  const raw = Buffer.from(cursor, 'base64url').toString();
  const [at, id] = raw.split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !isIdShaped(id) || Number.isNaN(createdAt.getTime())) {
    throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'cursor', message: 'cursor inválido: use o valor de nextCursor da página anterior.' }] });
  }
  return { createdAt, id };
}
