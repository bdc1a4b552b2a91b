import { DomainError } from '../../lib/errors/index.js';
import { renderError } from '../../lib/http/error-envelope.js';
import type { Model } from '../../lib/nfe/types.js';
import { emitDocument } from './emit.js';
import type { EmissionDeps } from './deps.js';
import { issuerForEmission } from './ports.js';
import type { BatchItemRow, BatchRow, BatchStore } from './batch.js';
import { MAX_ITEM_ATTEMPTS } from './batch.js';
import { prefixFieldErrors, prefixUnknownFields } from '../../lib/emission/batch-paths.js';
import { boundedValidationError, MAX_REPORTED_FIELDS, reportTotals, type ReportTotals, type UnknownField } from '../../lib/validation/field-errors.js';
import type { FieldError } from '../../lib/errors/index.js';

/**
 * Batch intake (all-or-nothing) and the processing of one queued item. Intake refuses the whole
 * batch on any strict-validation failure (paths `notas[i]…`) or issuer-selection failure; preflight
 * refusals are left to each item, which then ends FAILED without consuming a number.
 */
export async function validateBatch(deps: EmissionDeps, b: { partnerId: string; keyKind: 'live' | 'test' | null; model: Model; notas: unknown[] }): Promise<void> {
  const errors: FieldError[] = [];
  const unknown: UnknownField[] = [];
  const totals: ReportTotals = { errors: 0, unknown: 0 };
  for (let i = 0; i < b.notas.length; i++) {
    try {
      await deps.pipeline.validate(b.model, b.notas[i]);
    } catch (err: any) {
      if (err?.type !== 'VALIDATION_ERROR') throw err;
      const counted = reportTotals(err.data);
      totals.errors += counted.errors;
      totals.unknown += counted.unknown;
      // Each note's report is already bounded; the batch's is bounded again (500 notes × 50).
      if (errors.length < MAX_REPORTED_FIELDS) errors.push(...prefixFieldErrors(err.data?.errors ?? [], `notas[${i}]`));
      if (unknown.length < MAX_REPORTED_FIELDS) unknown.push(...prefixUnknownFields(err.data?.details?.camposDesconhecidos ?? [], `notas[${i}]`));
    }
  }
  if (totals.errors) throw boundedValidationError(errors, unknown, totals);
  const issuerIds = new Set(b.notas.map((n: any) => (typeof n?.issuerId === 'string' ? n.issuerId : undefined)));
  for (const issuerId of issuerIds) {
    try {
      await issuerForEmission(deps.calls, { partnerId: b.partnerId, issuerId, model: b.model, keyKind: b.keyKind });
    } catch (err: any) {
      if (Number(err?.code) !== 422) throw err; // preflight: decided per item, in the queue
    }
  }
}

export interface ItemEnv {
  errorsBase: string;
}

/** Runs one claimed item to COMPLETED or FAILED (or back to the queue after a transient failure). */
export async function processItem(deps: EmissionDeps, batches: BatchStore, batch: BatchRow, item: BatchItemRow, env: ItemEnv): Promise<void> {
  // The item's own key binds its document as a request's Idempotency-Key does: an item taken over
  // from a node that died answers (and carries on) the document that node numbered, never a second.
  const idempotencyKey = `batch-item:${item.id}`;
  try {
    const view = await emitDocument(deps, { partnerId: batch.partnerId, keyKind: batch.keyKind, model: batch.model, body: item.body, idempotencyKey });
    await batches.finish(item.id, 'COMPLETED', view as unknown as Record<string, unknown>, view.id);
  } catch (raw: any) {
    let err = raw;
    // The issuer existed when the batch was accepted (selection ran at intake).
    if (Number(raw?.code) === 404 && !raw?.data?.invoiceId) err = new DomainError('EMISSOR_INEXISTENTE');
    const status = Number(err?.code);
    if ((!Number.isInteger(status) || status >= 500 || status === 429) && item.attempts < MAX_ITEM_ATTEMPTS) {
      await batches.release(item.id);
      return;
    }
    const { body } = renderError(err, { errorsBase: env.errorsBase, instance: `/v1/nfe/batch/${batch.id}`, requestId: batch.requestId, timestamp: deps.now().toISOString() });
    const invoiceId = typeof err?.data?.invoiceId === 'string' ? err.data.invoiceId : null;
    await batches.finish(item.id, 'FAILED', { error: body.error, ...(invoiceId ? { invoiceId } : {}) }, invoiceId);
  }
}
