import { DomainError } from '../../lib/errors/index.js';
import { settledValue, type Bulkhead, type QueueRefusal } from '../shared/bulkhead.js';

/**
 * The issuer's numbering slots (issue 20, defect 2: the emission service's per-issuer Bulkhead,
 * services/emission.service.ts), one lane per issuer shared by its NF-e, NFC-e and NFS-e: a burst
 * waits for its own slots holding no database connection, never another issuer's, and beyond the
 * bound (EMISSION_NUMBERING_*) is refused before any number is used. Before a slot, a document
 * takes one of the issuer's in-flight places (EMISSION_IN_FLIGHT_PER_ISSUER, inFlightPlace below)
 * and keeps it until the authority answered: both are lanes of services/shared/bulkhead.ts.
 */

/** The refusal of a wait for a slot: 503 EMISSOR_SOBRECARREGADO (API.md; repeating it later is safe). */
export function slotRefused(issuerId: string): (r: QueueRefusal) => never {
  return (r) => { throw new DomainError('EMISSOR_SOBRECARREGADO', { issuerId, motivo: r.reason }); };
}

/**
 * `item` numbered in one of its issuer's slots, with the items of its `group` (one series of one
 * kind of document) that waited with it: `many` numbers them together (issue 18). Without slots (a
 * store driven directly), `many` numbers it alone.
 */
export function numberInSlot<I, T>(slots: Bulkhead | undefined, issuerId: string, group: string, item: I,
  many: (items: I[]) => Promise<Array<PromiseSettledResult<T>>>): Promise<T> {
  if (slots) return slots.runGrouped(issuerId, group, item, many, slotRefused(issuerId));
  return many([item]).then(([result]) => settledValue(result!));
}

/**
 * `work` (one document from before its number is taken until the authority answered it) in one of
 * its issuer's in-flight places on this node (EMISSION_IN_FLIGHT_PER_ISSUER), waiting within the
 * numbering's bounds and refused as a numbering slot is (503 EMISSOR_SOBRECARREGADO, no number
 * used). Numbering is faster than any authority answers: without this bound an overloaded node
 * numbered notes that the certificate's connection queue (services/sefaz/transport.ts) then refused
 * (`queue-full`: ERROR, left to reconciliation). With it, the notes in flight toward the authority
 * stay below that queue's bound and the overload waits where nothing was used yet. Absent: no bound.
 */
export function inFlightPlace<T>(places: Bulkhead | undefined, issuerId: string, work: () => Promise<T>): Promise<T> {
  return places ? places.run(issuerId, work, slotRefused(issuerId)) : work();
}
