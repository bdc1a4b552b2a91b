import type { ProductClass } from './types.js';

/**
 * The product class memory's transitions (API.md, "Rules on the product class memory" 1-5 and the
 * product-class rows of "States and transitions"). Each function takes the stored record (or
 * none) and returns the record to store, or the same object when nothing changes.
 *
 * Rule 1 needs no function: a class the service resolved itself (the NCM's single candidate, or
 * the stored class reused) is never written, so it can never become `informado`.
 */

const isConfirmed = (r: ProductClass | undefined): boolean => r?.origem === 'confirmado' || r?.origem === 'contador';

/**
 * A class sent in `items[].ibsCbs.cClassTrib` by an accepted note (rules 2, 3, 5). The same class
 * as a confirmed one leaves the record alone (3); a different one becomes `informado` and keeps
 * the confirmed class as `cClassTribAnterior` with `deslocouEm`, listed as `deslocou_confirmada`
 * (2; the emission is never blocked by it). Over an `informado` class no warning is raised (5), and
 * a marker already set stays until someone confirms. A `pendente` record is settled by the partner's
 * choice.
 */
export function recordSentClass(stored: ProductClass | undefined, sent: { codigo: string; ncm: string; cClassTrib: string }, at: Date): ProductClass {
  if (stored && isConfirmed(stored)) {
    if (stored.cClassTrib === sent.cClassTrib) return stored.ncm === sent.ncm ? stored : { ...stored, ncm: sent.ncm };
    return { codigo: sent.codigo, ncm: sent.ncm, cClassTrib: sent.cClassTrib, origem: 'informado', motivo: 'deslocou_confirmada', cClassTribAnterior: stored.cClassTrib, deslocouEm: at.toISOString() };
  }
  if (stored?.origem === 'informado' && stored.motivo === 'deslocou_confirmada') {
    return { ...stored, ncm: sent.ncm, cClassTrib: sent.cClassTrib };
  }
  if (stored?.origem === 'informado' && stored.cClassTrib === sent.cClassTrib && stored.ncm === sent.ncm) return stored;
  return { codigo: sent.codigo, ncm: sent.ncm, cClassTrib: sent.cClassTrib, origem: 'informado', motivo: null, cClassTribAnterior: null, deslocouEm: null };
}

/** POST /v1/fiscal/classification/classe (rule 4): `confirmado`, or `contador` for an accountant; every marker cleared. */
export function confirmClass(codigo: string, ncm: string, cClassTrib: string, byAccountant: boolean): ProductClass {
  return { codigo, ncm, cClassTrib, origem: byAccountant ? 'contador' : 'confirmado', motivo: null, cClassTribAnterior: null, deslocouEm: null };
}

/**
 * A note refused with NCM_MULTICLASSE for an item the memory could not answer: the item enters the
 * pending list with its NCM (its candidates are computed when listed). A class stored for this
 * same NCM is kept untouched: it was refused only because this model does not admit it (an
 * NF-e-only class in an NFC-e), and it still answers the other model (a class that stopped being a
 * candidate was already made `pendente` by the table load). A class stored for another NCM (the
 * product was reclassified) stays visible as `cClassTribAnterior`.
 */
export function recordMulticlassRefusal(stored: ProductClass | undefined, codigo: string, ncm: string): ProductClass {
  if (stored && stored.origem !== 'pendente' && stored.ncm === ncm) return stored;
  if (stored?.origem === 'pendente' && stored.motivo === 'multiclasse' && stored.ncm === ncm) return stored;
  return { codigo, ncm, cClassTrib: null, origem: 'pendente', motivo: 'multiclasse', cClassTribAnterior: stored?.cClassTrib ?? stored?.cClassTribAnterior ?? null, deslocouEm: null };
}

/**
 * A new table version changed the NCM's candidates (the "Valid classes of the NCM change" row): a
 * stored class that is no longer a candidate of its NCM becomes `pendente` (`candidatas_alteradas`),
 * keeping the class as `cClassTribAnterior`. A class still among the candidates is untouched.
 */
export function invalidateIfNotCandidate(stored: ProductClass, candidates: ReadonlySet<string>): ProductClass {
  if (stored.origem === 'pendente' || stored.cClassTrib === null || candidates.has(stored.cClassTrib)) return stored;
  return { ...stored, cClassTrib: null, origem: 'pendente', motivo: 'candidatas_alteradas', cClassTribAnterior: stored.cClassTrib, deslocouEm: null };
}

/** Whether the item shows in GET /v1/fiscal/classification/pendentes. */
export const isPending = (r: ProductClass): boolean => r.origem === 'pendente' || r.motivo === 'deslocou_confirmada';

/** The stored class the resolution may reuse: any recorded class that is not pending. */
export const reusableClass = (r: ProductClass | undefined): string | null => (r && r.origem !== 'pendente' ? r.cClassTrib : null);
