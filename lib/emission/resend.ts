/**
 * Whether a POST that repeats a `numero` already used may resend the stored document (API.md,
 * "States and transitions": CREATED/TRANSMITTING/ERROR within 7 days of creation, same key, nothing
 * new allocated). Anything else is 409; so is a resend while the document's transmission is still
 * in flight (lib/emission/transmission.ts), which would put a second one of the same key in flight.
 */
import { parseAccessKey } from '../nfe/access-key.js';
import { isOpen, type DocumentStatus } from './state.js';
import { statusInWords } from './status-words.js';
import { isInFlight } from './transmission.js';

export const RESEND_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export interface StoredForResend {
  status: DocumentStatus;
  accessKey: string | null;
  createdAt: Date;
  /** tpEmis of the stored key: 1 normal; other values are contingency keys. */
  tpEmis: number;
  /** Lease of the transmission in flight, if any. */
  transmittingUntil: Date | null;
}

export type ResendDecision =
  | { kind: 'resend' }
  | { kind: 'refuse'; code: 'NUMERO_JA_UTILIZADO' | 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL'; reason: string }
  /** Refused for now: the first transmission has not answered yet (409 DOCUMENTO_EM_TRANSMISSAO). */
  | { kind: 'in-flight'; until: Date };

export function resendEligibility(doc: StoredForResend, now: Date): ResendDecision {
  // Its key (tpEmis 9) belongs to the automatic contingency transmission, never to a resend.
  if (doc.status === 'CONTINGENCIA_PENDENTE') return { kind: 'refuse', code: 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL', reason: 'nota em contingência pendente' };
  if (!isOpen(doc.status)) return { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO', reason: `documento ${statusInWords(doc.status)}` };
  if (now.getTime() - doc.createdAt.getTime() > RESEND_WINDOW_MS) return { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO', reason: 'fora da janela de 7 dias' };
  if (!doc.accessKey || !/^\d{44}$/.test(doc.accessKey) || !parseAccessKey(doc.accessKey).ok) {
    return { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO', reason: 'chave armazenada ausente ou inválida' };
  }
  // Contingency keys are transmitted by the contingency flow (lib/emission/contingency.ts); a resend never.
  if (doc.tpEmis !== 1) return { kind: 'refuse', code: 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL', reason: `chave de contingência (tpEmis ${doc.tpEmis})` };
  // Last: the permanent refusals above would not change by waiting for the flight to end.
  if (isInFlight(doc, now)) return { kind: 'in-flight', until: doc.transmittingUntil! };
  return { kind: 'resend' };
}
