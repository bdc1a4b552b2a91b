/**
 * Whether an event has a DACCe: only a carta de correção (409 EVENTO_SEM_DACCE otherwise, with
 * details.tipo), and only once the authority registered it (409 CONFLICT with details.status, as
 * the event XML route answers before registration).
 */
import { DomainError } from '../errors/index.js';
import type { FiscalEventStatus, FiscalEventType } from '../emission/fiscal-events.js';

export function checkDacceSource(event: { type: FiscalEventType; status: FiscalEventStatus }, xml: string | null): string {
  if (event.type !== 'carta-correcao') throw new DomainError('EVENTO_SEM_DACCE', { tipo: event.type });
  if (event.status !== 'REGISTERED' || !xml) {
    throw new DomainError('CONFLICT', { status: event.status }, `DACCe indisponível para carta de correção em ${event.status}: há DACCe só depois do registro pela autoridade.`);
  }
  return xml;
}
