import { DomainError } from '../../../lib/errors/index.js';
import { brasiliaDateTime } from '../../../lib/emission/build-context.js';
import { nfseDetailView, type NfseRecord } from '../../../lib/emission/nfse/document.js';
import { buildSignedCancelEvent } from '../../../lib/nfse/xml/cancel-event.js';
import { createSigner } from '../../../lib/sign/signer.js';
import { API_VERSION } from '../../../lib/version.js';
import { signingMaterial } from '../ports.js';
import type { NfseDeps } from './emit.js';
import { unavailable, type NfseEventRecord, type NfseEventStore } from './event-store.js';
import { ownNfse } from './queries.js';
import { consultNfse, sendNfseEvent } from './sefin-ports.js';
import { sefinTarget } from './transmit.js';

export interface CancelNfseRequest {
  partnerId: string;
  id: string;
  justificativa: string;
  codigoMotivo: 1 | 2 | 9;
}

export type CancelDeps = NfseDeps & { events: NfseEventStore };

/**
 * POST /v1/nfse/{id}/cancelamento: event e101101 signed with the issuer's A1 and sent to Sefin
 * (`POST {base}/nfse/{chaveAcesso}/eventos`). Only an AUTHORIZED NFS-e (else 422
 * DOCUMENTO_NAO_CANCELAVEL); a CANCELADA one answers its registered cancellation and sends nothing.
 * One send at a time (409 EVENTO_EM_TRANSMISSAO); without an answer the event stays pending and the
 * same request completes it: consulting Sefin first when the lost send may have been registered,
 * else sending the same signed event again (Sefin answers a repeated event by its Id). The
 * reconciliation round settles the uncertain ones on its own (reconcileCancellation).
 */
export async function cancelNfse(deps: CancelDeps, req: CancelNfseRequest) {
  // A write: the issuer's own test-key rule judges it, not the reader's.
  const doc = await ownNfse(deps.nfse, { partnerId: req.partnerId }, req.id);
  if (doc.status === 'CANCELADA') {
    const done = await deps.events.registered(doc.id);
    if (done) return cancelView(done, doc);
  }
  if (doc.status !== 'AUTHORIZED' && doc.status !== 'CANCELADA') throw new DomainError('DOCUMENTO_NAO_CANCELAVEL', { status: doc.status });
  const issuer = await deps.calls.call<{ issuer: { cnpj: string }; certificate?: { fingerprint: string } | null }>('v1.issuer.forEmission', { partnerId: req.partnerId, issuerId: doc.issuerId, model: 'NFSe', keyKind: null, preflight: 'report' });
  const signer = createSigner(await signingMaterial(deps.calls, doc.issuerId, issuer.certificate?.fingerprint ?? null));
  const claim = await deps.events.claim(doc.id, req.justificativa, req.codigoMotivo, () => buildSignedCancelEvent({
    tpAmb: doc.environment, verAplic: `fiscal-api ${API_VERSION}`, dhEvento: brasiliaDateTime(deps.now()), autor: issuer.issuer.cnpj,
    chaveAcesso: doc.chaveAcesso!, cMotivo: req.codigoMotivo, xMotivo: req.justificativa,
  }, signer).xml);
  if (claim.kind === 'registered') return cancelView(claim.event, (await deps.nfse.get(doc.id))!);
  if (claim.kind === 'in-flight') throw new DomainError('EVENTO_EM_TRANSMISSAO', { eventoId: claim.event.id, nfseId: doc.id });

  return settleCancellation(deps, doc, claim.event, claim.requestXml);
}

/**
 * Sends the claimed event, or first — when an earlier send may have reached Sefin (`unknown`) —
 * consults the NFS-e: a cancellation Sefin already registered is taken from there (its event XML
 * and dhProc), so nothing is sent twice. Without an answer the event stays PENDING (503).
 */
async function settleCancellation(deps: CancelDeps, doc: NfseRecord, event: NfseEventRecord, requestXml: string) {
  const uncertain = event.lastOutcome === 'unknown';
  if (uncertain) {
    const found = await consultNfse(deps.calls, sefinTarget(doc), doc.chaveAcesso!);
    if (found.kind === 'canceled') return registered(deps, doc, event.id, found.cancelamento);
    if (found.kind === 'failed') {
      await deps.events.release(event.id, 'unknown');
      throw unavailable(event, 'indeterminada');
    }
  }
  const result = await sendNfseEvent(deps.calls, sefinTarget(doc), doc.chaveAcesso!, requestXml);
  switch (result.kind) {
    case 'registered':
      return registered(deps, doc, event.id, result);
    case 'rejected': {
      const erros = result.erros.map(({ codigo, descricao }) => ({ codigo, descricao }));
      const ev = await deps.events.reject(event.id, erros);
      throw new DomainError('EVENTO_REJEITADO', { erros, eventoId: ev.id, nfseId: doc.id });
    }
    case 'failed':
    case 'unknown': {
      // An earlier send that may have been registered keeps the event uncertain after a failure too.
      const ev = await deps.events.release(event.id, result.kind);
      throw unavailable(ev, ev.lastOutcome === 'unknown' ? 'indeterminada' : 'nao_enviado');
    }
  }
}

async function registered(deps: CancelDeps, doc: NfseRecord, eventId: string, at: { eventXml: string | null; registeredAt: string }) {
  const ev = await deps.events.registerCancellation(eventId, at.eventXml, new Date(at.registeredAt));
  return cancelView(ev, (await deps.nfse.get(doc.id))!);
}

/**
 * One reconciliation step for a cancellation whose answer was lost (claimed by
 * NfseEventStore.claimDue): Sefin's record of the NFS-e settles it. Canceled there: REGISTERED,
 * CANCELADA and invoice.canceled in one commit; not canceled: the send was not registered, and the
 * event waits for its request to be repeated (nao_enviado); no answer: the next check.
 */
export async function reconcileCancellation(deps: CancelDeps, event: NfseEventRecord): Promise<{ id: string; status: string }> {
  const doc = (await deps.nfse.get(event.documentId))!;
  const found = await consultNfse(deps.calls, sefinTarget(doc), doc.chaveAcesso!);
  if (found.kind === 'canceled') return { id: event.id, status: (await deps.events.registerCancellation(event.id, found.cancelamento.eventXml, new Date(found.cancelamento.registeredAt))).status };
  if (found.kind === 'authorized') return { id: event.id, status: (await deps.events.notRegistered(event.id)).status };
  // No answer, or Sefin not finding an NFS-e it issued: nothing is concluded until the next check.
  await deps.events.unlease(event.id);
  return { id: event.id, status: event.status };
}

function cancelView(ev: NfseEventRecord, doc: NfseRecord) {
  return {
    id: ev.id,
    tipo: 'cancelamento' as const,
    evento: 'e101101',
    status: ev.status,
    codigoMotivo: ev.codigoMotivo,
    justificativa: ev.justificativa,
    registradoEm: ev.registeredAt?.toISOString() ?? null,
    links: { xml: `/v1/nfse/${doc.id}/cancelamento/xml` },
    documento: nfseDetailView(doc),
  };
}
