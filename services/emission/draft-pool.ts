import { DomainError } from '../../lib/errors/index.js';
import type { DocumentPipeline } from '../../lib/emission/pipeline.js';
import { TurnPool } from '../shared/turn-pool.js';
import { siblingWorker } from '../shared/worker-file.js';
import { refusedWith } from '../shared/worker-refusal.js';
import { draftFromInfNFe, realPipeline } from './pipeline-binding.js';
import type { DraftJob, DraftOutcome } from './draft.worker.js';

export interface DraftPoolOptions {
  /** Threads drafting large notes on this node. */
  threads: number;
  /** A note with at least this many items is drafted in a thread; a smaller one on the event loop (config DRAFT_MIN_ITEMS). */
  minItems: number;
  /** Drafts waiting for a thread; beyond, 503 SERVICE_UNAVAILABLE at once (before any number) instead of an ever longer wait. */
  maxQueue?: number;
  /** Drafts of one issuer waiting; beyond, 503 EMISSOR_SOBRECARREGADO for that issuer only (before any number). */
  maxQueuePerIssuer?: number;
}

/**
 * The draft of a large NF-e/NFC-e (its build and its XSD check, lib/nfe/document.ts draftNfe) in
 * a worker thread. On the event loop a 990-item note's draft held the node 40-60 ms (2026-11-27,
 * a slow 2-core machine): every other request of every issuer on that node waited behind it, so
 * one tenant's large notes set everyone's latency (at peak, the loop's lag p99 305 ms; with the
 * drafts here, 40 ms: bench/README.md). In the threads, issuers take turns
 * (services/shared/fair-slots.ts): another issuer's large note waits for at most one draft per
 * thread. A smaller note stays on the loop: at 50 items the hand-over (the note cloned to the
 * thread, its XML back, the wake-ups) cost 2.4 ms more CPU per note than the 5 ms it freed.
 *
 * The thread runs the same `realPipeline.draft`, so a pooled draft is byte for byte the loop's,
 * and refuses what it refuses (XML_FORA_DO_ESQUEMA, CSC_AUSENTE, DOCUMENTO_EXCEDE_TAMANHO_MAXIMO),
 * before the note's number is taken as on the loop. The threads start with the first large note.
 */
export class DraftPool {
  private readonly threads: TurnPool;
  /** Drafts done in a thread, and the threads they ran in (tests). */
  readonly drafted = { count: 0, threadIds: new Set<number>() };

  constructor(private readonly opts: DraftPoolOptions) {
    this.threads = new TurnPool({
      worker: siblingWorker(import.meta.url, 'draft.worker'), threads: opts.threads, ping: { op: 'ping' } satisfies DraftJob,
      bounds: { waiting: opts.maxQueue ?? 256, waitingPerOwner: opts.maxQueuePerIssuer ?? 32 },
      // An issuer's own bound answers as its numbering slots do (numbering-slots.ts); the node's, as the PDFs'.
      refusal: (issuerId, bound) => (bound === 'owner'
        ? new DomainError('EMISSOR_SOBRECARREGADO', { issuerId, motivo: 'queue-full' })
        : new DomainError('SERVICE_UNAVAILABLE', undefined, 'Montagem de notas grandes ocupada neste momento; tente novamente.')),
    });
  }

  /**
   * `pipeline` drafting its large notes here. Only the real pipeline: the thread runs that one, so
   * a stand-in bound by a test (pipeline-binding.ts bindPipeline) keeps every draft of its own.
   */
  around(pipeline: DocumentPipeline): DocumentPipeline {
    if (pipeline !== realPipeline) return pipeline;
    return {
      ...pipeline,
      draft: (note, totals, ctx, material, onStep) => (note.items.length >= this.opts.minItems ? this.draft({ op: 'draft', note, totals, ctx, material }, onStep) : pipeline.draft(note, totals, ctx, material, onStep)),
    };
  }

  destroy(): Promise<void> {
    return this.threads.destroy();
  }

  private async draft(job: Extract<DraftJob, { op: 'draft' }>, onStep?: Parameters<DocumentPipeline['draft']>[4]) {
    const outcome = await this.threads.run<DraftOutcome>(job.ctx.issuer.id, job);
    if (!outcome.ok) throw refusedWith(outcome.refusal);
    this.drafted.count++;
    this.drafted.threadIds.add(outcome.threadId);
    onStep?.('draft');
    return draftFromInfNFe(job.note, job.totals, job.ctx, outcome.infNFe!);
  }
}
