import { DomainError } from '../../lib/errors/index.js';
import { emissionView, type DocumentRecord } from '../../lib/emission/document.js';
import type { ResolvedItemView } from '../../lib/classification/note-groups.js';

/** An emission's answer: the emission view, with what assisted taxation resolved when the note asked for it. */
export type EmissionAnswer = ReturnType<typeof emissionView> & { tributacaoResolvida?: ResolvedItemView[] };

/**
 * 201 for anything that is not an authority refusal; a refusal is the 400 of API.md with erros[] verbatim.
 * `tributacaoResolvida[]` is stored with the document, so a retry under the same Idempotency-Key
 * (services/emission/idempotent-retry.ts) answers it as the first request did.
 */
export function respond(doc: DocumentRecord): EmissionAnswer {
  if (doc.status === 'REJECTED' || doc.status === 'DENEGADA') {
    throw new DomainError('BAD_REQUEST', { erros: doc.erros ?? [], invoiceId: doc.id, status: doc.status }, doc.motivo ?? 'Documento rejeitado pela autoridade fiscal.');
  }
  const view = emissionView(doc);
  return doc.tributacaoResolvida ? { ...view, tributacaoResolvida: doc.tributacaoResolvida } : view;
}
