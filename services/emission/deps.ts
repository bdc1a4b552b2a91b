import type { ActionCaller } from './action-caller.js';
import type { DocumentPipeline } from '../../lib/emission/pipeline.js';
import type { DocumentStore } from './store.js';
import type { ContingencyStore } from './contingency-store.js';
import type { StageTimer } from './stage-timer.js';
import type { Bulkhead } from '../shared/bulkhead.js';
import type { OutcomeReporter } from './outcome-report.js';

/**
 * What the emission steps (emit, transmit, contingency, recovery, events) are given by the service:
 * its own file so that those steps depend on it, not on each other.
 */
export interface EmissionDeps {
  store: DocumentStore;
  pipeline: DocumentPipeline;
  calls: ActionCaller;
  now(): Date;
  /** Per-stage durations of this node (v1.emission.stageStats); absent: nothing is timed. */
  stages?: StageTimer;
  /** NFC-e offline contingency; absent: never entered (the batch, NF-e only, has no use for it). */
  contingency?: ContingencyStore;
  /** Told of an unexpected failure after a document was numbered (the answer carries only its id). */
  reportFault?(err: unknown, invoiceId: string): void;
  /**
   * Numbering transactions of one issuer in flight on this node (issue 20, defect 2): the rest of a
   * burst waits here, in memory, instead of holding database connections while it queues on the
   * issuer's sequence lock, so other issuers keep theirs. Absent: no limit.
   */
  numbering?: Bulkhead;
  /** Documents of one issuer numbered and not yet answered on this node (numbering-slots.ts inFlightPlace); absent: no bound. */
  inFlight?: Bulkhead;
  /** Told of each authority answer stored (the outcome log line and counter); absent: nothing is reported. */
  onOutcome?: OutcomeReporter;
}
