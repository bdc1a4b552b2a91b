/**
 * Document states of NF-e/NFC-e and the transitions between them (API.md, "States and
 * transitions"), as a pure function: the service asks `transition(from, trigger)` and persists the
 * answer; nothing else decides a state.
 *
 * DENEGADA is this service's name for "uso denegado" (cStat 110/301/302/303…): the authority
 * registered the number and the note cannot circulate (spec: "not shown"; documented in OpenAPI).
 * CANCELADA is the canceled state API.md implies with `invoice.canceled` (its name is "not shown"):
 * an AUTHORIZED note whose cancellation event (110111) the authority registered
 * (lib/emission/fiscal-events.ts). No authorization or consult answer moves it.
 */
import type { AuthorizationResult, ConsultResult } from '../sefaz/results.js';

export const DOCUMENT_STATUSES = [
  'CREATED', 'TRANSMITTING', 'AUTHORIZED', 'REJECTED', 'DENEGADA', 'ERROR', 'CONTINGENCIA_PENDENTE', 'CANCELADA',
] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** An authority outcome is final for these; no later answer moves them (exactly one terminal event). */
export const TERMINAL_STATUSES: readonly DocumentStatus[] = ['AUTHORIZED', 'REJECTED', 'DENEGADA', 'CANCELADA'];
/** Has a key and no terminal outcome: reconciled, listed by `situacao=indeterminada`, open to resend. */
export const OPEN_STATUSES: readonly DocumentStatus[] = ['CREATED', 'TRANSMITTING', 'ERROR'];

export const isTerminal = (s: DocumentStatus): boolean => TERMINAL_STATUSES.includes(s);
export const isOpen = (s: DocumentStatus): boolean => OPEN_STATUSES.includes(s);

export type Trigger =
  | { kind: 'transmit' } // about to call the authority (emission, resend or reconciliation retransmit)
  | { kind: 'authorization'; result: AuthorizationResult }
  | { kind: 'consult'; result: ConsultResult };

/** What happens to the document: the next state (or none), and why, for history and `motivo`. */
export type Transition =
  | { to: DocumentStatus; motivo: string | null; event: 'invoice.authorized' | 'invoice.rejected' | null }
  | { to: null; motivo: string | null; retransmit?: boolean };

function message(r: { cStat: number; xMotivo: string }): string {
  return `${r.cStat} - ${r.xMotivo}`;
}

/**
 * The transition table. `to: null` means "stays as it is" (indeterminate: reconciliation consults
 * again later, or retransmits when `retransmit`). Decisions read the result's `kind` alone.
 */
export function transition(from: DocumentStatus, trigger: Trigger): Transition {
  if (isTerminal(from)) return { to: null, motivo: null };
  switch (trigger.kind) {
    case 'transmit':
      if (from === 'CONTINGENCIA_PENDENTE' || isOpen(from)) return { to: 'TRANSMITTING', motivo: null, event: null };
      return { to: null, motivo: null };
    case 'authorization': {
      const r = trigger.result;
      switch (r.kind) {
        case 'authorized': return { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' };
        case 'rejected': return { to: 'REJECTED', motivo: message(r), event: 'invoice.rejected' };
        case 'denied': return { to: 'DENEGADA', motivo: message(r), event: 'invoice.rejected' };
        // Asynchronous receipt: the outcome is fetched by consulting the key (reconciliation).
        case 'processing': return { to: null, motivo: `Lote em processamento (${message(r)}); consulta pela chave agendada.` };
        // Nothing reached the authority: ERROR keeps the key; reconciliation consults and retransmits on "not found".
        case 'failed': return { to: 'ERROR', motivo: `Falha de infraestrutura antes do envio (${r.reason}): ${r.detail}`, event: null };
        // May have been processed: never resend blindly; stays TRANSMITTING and is consulted by key.
        case 'unknown': return { to: null, motivo: `Situação indeterminada (${r.reason}): ${r.detail}` };
      }
      break;
    }
    case 'consult': {
      const r = trigger.result;
      switch (r.kind) {
        case 'authorized': return { to: 'AUTHORIZED', motivo: null, event: 'invoice.authorized' };
        case 'denied': return { to: 'DENEGADA', motivo: message(r), event: 'invoice.rejected' };
        // A refused consult (wrong UF, malformed request…) says nothing about the note itself.
        case 'rejected': return { to: null, motivo: `Consulta pela chave recusada (${message(r)}); nova tentativa agendada.` };
        // A canceled key was authorized first; cancellation is another issue's state.
        case 'canceled': return { to: 'AUTHORIZED', motivo: message(r), event: 'invoice.authorized' };
        case 'not-found': return { to: null, motivo: `Autoridade não conhece a chave (${message(r)}); retransmitindo.`, retransmit: true };
        case 'failed': return { to: null, motivo: `Consulta pela chave falhou (${r.reason}): ${r.detail}` };
      }
    }
  }
  throw new Error(`unhandled trigger ${JSON.stringify(trigger)}`);
}
