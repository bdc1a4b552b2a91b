import type { LoggerInstance } from 'moleculer';
import type { DocumentRecord } from '../../lib/emission/document.js';
import type { AuthorizationResult, ConsultResult } from '../../lib/sefaz/results.js';
import type { NfseRecord } from '../../lib/emission/nfse/document.js';
import type { DpsConsultResult, NfseSubmitResult } from '../../lib/sefin/results.js';
import type { NodeMetrics } from '../shared/metrics.js';

/** Told of each authority answer stored for a note: its transmission or a consult that settled it. */
export type OutcomeReporter = (doc: DocumentRecord, via: 'authorization' | 'consult', result: AuthorizationResult | ConsultResult) => void;

/**
 * One info line per fiscal outcome (model, key, cStat, protocol, the note's status after it) and
 * the outcome counter of this node. `logger` is the request's (services/shared/request-log.ts), so
 * the line joins the access-log line of the request that caused it; reconciliation's lines name
 * no request. The note's XML is never logged.
 */
export function outcomeReporter(metrics: NodeMetrics): (logger: LoggerInstance) => OutcomeReporter {
  return (logger) => (doc, via, result) => {
    const cStat = 'cStat' in result ? result.cStat : undefined;
    const protocol = 'protocol' in result && result.protocol ? result.protocol : doc.protocol ?? undefined;
    metrics.emissionOutcomes.inc({ model: String(doc.model), kind: result.kind, cstat: cStat === undefined ? '' : String(cStat) });
    logger.info({
      documentId: doc.id, issuerId: doc.issuerId, model: doc.model, key: doc.accessKey, status: doc.status, via, result: result.kind,
      ...(cStat !== undefined ? { cStat } : {}),
      ...(protocol ? { protocol } : {}),
      ...('reason' in result ? { reason: result.reason } : {}),
    }, 'fiscal outcome');
  };
}

/** Told of each Sefin answer stored for a DPS: its submission or the consult that settled it. */
export type NfseOutcomeReporter = (doc: NfseRecord, via: 'submission' | 'consult', result: NfseSubmitResult | DpsConsultResult) => void;

/**
 * The NFS-e's line and counter, like the NF-e's: the key is the 50-digit chaveAcesso (or the idDps
 * before Sefin gave one), and a rejection names Sefin's first code (E…) where NF-e has a cStat.
 */
export function nfseOutcomeReporter(metrics: NodeMetrics): (logger: LoggerInstance) => NfseOutcomeReporter {
  return (logger) => (doc, via, result) => {
    const codigo = result.kind === 'rejected' ? result.erros[0]?.codigo : undefined;
    metrics.emissionOutcomes.inc({ model: 'NFSe', kind: result.kind, cstat: codigo ?? '' });
    logger.info({
      documentId: doc.id, issuerId: doc.issuerId, model: 'NFSe', key: doc.chaveAcesso ?? doc.idDps, idDps: doc.idDps, status: doc.status, via, result: result.kind,
      ...(codigo ? { codigo } : {}),
      ...(doc.numeroNfse ? { numeroNfse: doc.numeroNfse } : {}),
      ...('reason' in result ? { reason: result.reason } : {}),
    }, 'fiscal outcome');
  };
}
