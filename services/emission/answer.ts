import { DomainError } from '../../lib/errors/index.js';
import { emissionView, type DocumentRecord } from '../../lib/emission/document.js';

/** 201 for anything that is not an authority refusal; a refusal is the 400 of API.md with erros[] verbatim. */
export function respond(doc: DocumentRecord): ReturnType<typeof emissionView> {
  if (doc.status === 'REJECTED' || doc.status === 'DENEGADA') {
    throw new DomainError('BAD_REQUEST', { erros: doc.erros ?? [], invoiceId: doc.id, status: doc.status }, doc.motivo ?? 'Documento rejeitado pela autoridade fiscal.');
  }
  return emissionView(doc);
}
