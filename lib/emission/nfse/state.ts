/**
 * States of an NFS-e (DPS) and the transitions between them, as a pure function of Sefin
 * Nacional's typed answers (lib/sefin/results.ts). API.md leaves "Transitions of the NFS-e
 * document" not shown; this is the NF-e table (lib/emission/state.ts) carried over:
 *
 *   (new) → CREATED (number and idDps stored) → TRANSMITTING (committed before Sefin is called)
 *   TRANSMITTING → AUTHORIZED (invoice.authorized) | REJECTED (invoice.rejected, erros[] verbatim)
 *              → ERROR (nothing reached Sefin) | stays TRANSMITTING (unknown: consulted by idDps)
 *   CREATED/TRANSMITTING/ERROR → reconciliation: GET /dps/{idDps} authorized → AUTHORIZED,
 *              not found → the stored DPS is sent again (same idDps), failed → next slot
 *   AUTHORIZED → CANCELADA once Sefin registers the e101101 event (invoice.canceled)
 *
 * Sefin's E0014 ("this série/número/município/CNPJ already has an NFS-e") for our own idDps means an
 * earlier attempt of ours was processed: the DPS is consulted by idDps and ends as Sefin holds it,
 * never REJECTED (the NF-e 204 rule, lib/emission/duplicate-key.ts).
 */
import type { DpsConsultResult, NfseSubmitResult, SefinMessage } from '../../sefin/results.js';

export const NFSE_STATUSES = ['CREATED', 'TRANSMITTING', 'AUTHORIZED', 'REJECTED', 'ERROR', 'CANCELADA'] as const;
export type NfseStatus = (typeof NFSE_STATUSES)[number];

export const NFSE_TERMINAL: readonly NfseStatus[] = ['AUTHORIZED', 'REJECTED', 'CANCELADA'];
export const NFSE_OPEN: readonly NfseStatus[] = ['CREATED', 'TRANSMITTING', 'ERROR'];
export const isNfseTerminal = (s: NfseStatus): boolean => NFSE_TERMINAL.includes(s);
export const isNfseOpen = (s: NfseStatus): boolean => NFSE_OPEN.includes(s);

/** Sefin's rejection code for a DPS whose série/número/município/CNPJ already produced an NFS-e. */
export const SEFIN_DPS_DUPLICADA = 'E0014';

export type NfseTrigger =
  | { kind: 'submit'; result: NfseSubmitResult }
  | { kind: 'consult'; result: DpsConsultResult };

export type NfseTransition =
  | { to: NfseStatus; motivo: string | null; event: 'invoice.authorized' | 'invoice.rejected' | null }
  | { to: null; motivo: string | null; retransmit?: boolean };

const joined = (erros: SefinMessage[]): string => erros.map((e) => `${e.codigo} - ${e.descricao}`).join('; ');

/** Whether a rejection says only "this DPS already has an NFS-e" (consult by idDps instead). */
export function isDuplicateDps(result: NfseSubmitResult): boolean {
  return result.kind === 'rejected' && result.erros.length > 0 && result.erros.every((e) => e.codigo === SEFIN_DPS_DUPLICADA);
}

export function nfseTransition(from: NfseStatus, trigger: NfseTrigger): NfseTransition {
  if (isNfseTerminal(from)) return { to: null, motivo: null };
  if (trigger.kind === 'submit') {
    const s = trigger.result;
    switch (s.kind) {
      case 'authorized': return { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' };
      case 'rejected': return { to: 'REJECTED', motivo: joined(s.erros), event: 'invoice.rejected' };
      case 'failed': return { to: 'ERROR', motivo: `Falha de infraestrutura antes do envio (${s.reason}): ${s.detail}`, event: null };
      case 'unknown': return { to: null, motivo: `Situação indeterminada (${s.reason}): ${s.detail}; consulta pelo idDps agendada.` };
    }
  }
  const r = trigger.result;
  switch (r.kind) {
    case 'authorized': return { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' };
    case 'not-found': return { to: null, motivo: 'Sefin não conhece o idDps; reenviando a mesma DPS.', retransmit: true };
    case 'failed': return { to: null, motivo: `Consulta pelo idDps falhou (${r.reason}): ${r.detail}` };
  }
  throw new Error(`unhandled NFS-e trigger ${JSON.stringify(trigger)}`);
}
