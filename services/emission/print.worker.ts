import { renderNfePdf } from '../../lib/danfe/nfe-pdf.js';
import { renderNfcePdf } from '../../lib/danfe/nfce-pdf.js';
import { renderDanfsePdf } from '../../lib/danfse/pdf.js';
import type { DanfeView } from '../../lib/danfe/view-model.js';
import type { DanfseView } from '../../lib/danfse/view-model.js';

/** One PDF of services/emission/print-pool.ts: the view is built on the service, the drawing is done here. */
export type PrintJob =
  | { kind: 'nfe'; view: DanfeView; logo?: Uint8Array }
  | { kind: 'nfce'; view: DanfeView }
  | { kind: 'nfse'; view: DanfseView };

/**
 * Runs in a worker thread (piscina). Drawing a PDF is the one costly read of a document: a 990-item
 * DANFE or a 2000-pixel logo with transparency takes ~0.4 s of CPU, which on the service's event
 * loop was 0.4 s without any emission of any partner on that node.
 */
export default async function renderPrintable(job: PrintJob | { kind: 'ping' }): Promise<Uint8Array | null> {
  switch (job.kind) {
    case 'ping': return null; // the thread is loaded (print-pool.ts)
    case 'nfe': return renderNfePdf(job.view, job.logo ? { logo: Buffer.from(job.logo.buffer, job.logo.byteOffset, job.logo.byteLength) } : {});
    case 'nfce': return renderNfcePdf(job.view);
    case 'nfse': return renderDanfsePdf(job.view);
  }
}
