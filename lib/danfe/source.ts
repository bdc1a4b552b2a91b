/**
 * Which stored XML a DANFE / DANFCE is printed from, by document status. A DANFE accompanies a
 * note that circulates: authorized (nfeProc), canceled (the same nfeProc, marked CANCELADA), and an
 * NFC-e issued in offline contingency (its signed XML: the receipt the shop prints before the
 * authority has seen the note). Any other status has no document to print: 409 DOCUMENTO_SEM_DANFE.
 */
import { DomainError } from '../errors/index.js';
import type { DocumentStatus } from '../emission/state.js';
import { statusInWords } from '../emission/status-words.js';
import type { Model } from '../nfe/types.js';

export interface StoredXml {
  authorized: string | null;
  transmitted: string | null;
}

export interface DanfeSource {
  xml: string;
  cancelada: boolean;
}

export function danfeSource(doc: { status: DocumentStatus; model: Model }, stored: StoredXml | undefined): DanfeSource {
  if ((doc.status === 'AUTHORIZED' || doc.status === 'CANCELADA') && stored?.authorized) {
    return { xml: stored.authorized, cancelada: doc.status === 'CANCELADA' };
  }
  if (doc.status === 'CONTINGENCIA_PENDENTE' && doc.model === '65' && stored?.transmitted) {
    return { xml: stored.transmitted, cancelada: false };
  }
  throw new DomainError('DOCUMENTO_SEM_DANFE', { status: doc.status },
    `Documento ${statusInWords(doc.status)} não tem ${doc.model === '65' ? 'DANFCE' : 'DANFE'}: só documentos autorizados, cancelados ou NFC-e emitida em contingência.`);
}
