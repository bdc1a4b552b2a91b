/**
 * Whether a POST that repeats a `numero` already used may resend the stored document (API.md,
 * "States and transitions": CREATED/TRANSMITTING/ERROR within 7 days of creation, same key, nothing
 * new allocated). Anything else is 409.
 */
import { parseAccessKey } from '../nfe/access-key.js';
import { isOpen, type DocumentStatus } from './state.js';

export const RESEND_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export interface StoredForResend {
  status: DocumentStatus;
  accessKey: string | null;
  createdAt: Date;
  /** tpEmis of the stored key: 1 normal; other values are contingency keys. */
  tpEmis: number;
}

export type ResendDecision =
  | { kind: 'resend' }
  | { kind: 'refuse'; code: 'NUMERO_JA_UTILIZADO' | 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL'; reason: string };

export function resendEligibility(doc: StoredForResend, now: Date): ResendDecision {
  if (!isOpen(doc.status)) return { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO', reason: `documento em ${doc.status}` };
  if (now.getTime() - doc.createdAt.getTime() > RESEND_WINDOW_MS) return { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO', reason: 'fora da janela de 7 dias' };
  if (!doc.accessKey || !/^\d{44}$/.test(doc.accessKey) || !parseAccessKey(doc.accessKey).ok) {
    return { kind: 'refuse', code: 'NUMERO_JA_UTILIZADO', reason: 'chave armazenada ausente ou inválida' };
  }
  // Contingency keys are restored by the contingency flow (later issue); a plain resend cannot.
  if (doc.tpEmis !== 1) return { kind: 'refuse', code: 'RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL', reason: `chave de contingência (tpEmis ${doc.tpEmis})` };
  return { kind: 'resend' };
}
