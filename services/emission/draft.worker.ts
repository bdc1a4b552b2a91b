import { threadId } from 'node:worker_threads';
import type { CheckedNote, NoteTotals } from '../../lib/nfe/types.js';
import type { BuildContext } from '../../lib/emission/pipeline.js';
import type { SigningMaterial } from '../../lib/issuer/types.js';
import type { InfNFeXml } from '../../lib/nfe/xml/nfe.js';
import { refusalOf, type WorkerRefusal } from '../shared/worker-refusal.js';
import { realPipeline } from './pipeline-binding.js';

/** One job of services/emission/draft-pool.ts: a large note's draft (lib/nfe/document.ts draftNfe). */
export type DraftJob =
  | { op: 'ping' }
  | { op: 'draft'; note: CheckedNote; totals: NoteTotals; ctx: BuildContext; material: SigningMaterial };

/**
 * What crosses back: the drafted infNFe (three strings; the service has the rest), or a refusal
 * as plain data (services/shared/worker-refusal.ts). `threadId` says where the work ran.
 */
export type DraftOutcome =
  | { ok: true; threadId: number; infNFe?: InfNFeXml }
  | { ok: false; refusal: WorkerRefusal };

/** Runs in a worker thread (piscina): the build and the XSD check of a large note off the event loop. */
export default function draftInThread(job: DraftJob): DraftOutcome {
  if (job.op === 'ping') return { ok: true, threadId }; // the thread is loaded (draft-pool.ts)
  try {
    const draft = realPipeline.draft(job.note, job.totals, job.ctx, job.material) as Awaited<ReturnType<typeof realPipeline.draft>>;
    return { ok: true, threadId, infNFe: draft.nfe!.infNFe };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err) };
  }
}
