import { contingencyView } from './contingency.js';
import { eventData, type DocumentRecord } from './document.js';

/**
 * `data` of `invoice.contingency` and `invoice.contingency.expired` (API.md leaves it "not shown";
 * documented in the OpenAPI description of the emission): the invoice fields of the other invoice
 * events, plus the QR code printed on the receipt and the `contingencia` block.
 */
export function contingencyEventData(doc: DocumentRecord) {
  if (!doc.contingencia) throw new Error(`document ${doc.id} has no contingency`);
  const { emitidaEmContingencia: _final, ...base } = eventData(doc);
  return { ...base, qrCode: doc.qrCode, contingencia: contingencyView(doc.contingencia) };
}
