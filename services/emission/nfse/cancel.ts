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
import { sendNfseEvent } from './sefin-ports.js';
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
 * same request sends the same signed event again (Sefin answers a repeated event by its Id).
 */
export async function cancelNfse(deps: CancelDeps, req: CancelNfseRequest) {
  const doc = await ownNfse(deps.nfse, req.partnerId, req.id);
  if (doc.status === 'CANCELADA') {
    const done = await deps.events.registered(doc.id);
    if (done) return cancelView(done, doc);
  }
  if (doc.status !== 'AUTHORIZED' && doc.status !== 'CANCELADA') throw new DomainError('DOCUMENTO_NAO_CANCELAVEL', { status: doc.status });
  const issuer = await (deps.calls.call as any)('v1.issuer.forEmission', { partnerId: req.partnerId, issuerId: doc.issuerId, model: 'NFSe', keyKind: null, preflight: 'report' }) as { issuer: { cnpj: string }; certificate?: { fingerprint: string } | null };
  const signer = createSigner(await signingMaterial(deps.calls, doc.issuerId, issuer.certificate?.fingerprint ?? null));
  const claim = await deps.events.claim(doc.id, req.justificativa, req.codigoMotivo, () => buildSignedCancelEvent({
    tpAmb: doc.environment, verAplic: `fiscal-api ${API_VERSION}`, dhEvento: brasiliaDateTime(deps.now()), autor: issuer.issuer.cnpj,
    chaveAcesso: doc.chaveAcesso!, cMotivo: req.codigoMotivo, xMotivo: req.justificativa,
  }, signer).xml);
  if (claim.kind === 'registered') return cancelView(claim.event, (await deps.nfse.get(doc.id))!);
  if (claim.kind === 'in-flight') throw new DomainError('EVENTO_EM_TRANSMISSAO', { eventoId: claim.event.id, nfseId: doc.id });

  const result = await sendNfseEvent(deps.calls, sefinTarget(doc), doc.chaveAcesso!, claim.requestXml);
  switch (result.kind) {
    case 'registered': {
      const ev = await deps.events.registerCancellation(claim.event.id, result.eventXml, new Date(result.registeredAt));
      return cancelView(ev, (await deps.nfse.get(doc.id))!);
    }
    case 'rejected': {
      const erros = result.erros.map(({ codigo, descricao }) => ({ codigo, descricao }));
      const ev = await deps.events.reject(claim.event.id, erros);
      throw new DomainError('EVENTO_REJEITADO', { erros, eventoId: ev.id, nfseId: doc.id });
    }
    case 'failed':
      await deps.events.release(claim.event.id);
      throw unavailable(claim.event, 'nao_enviado');
    case 'unknown':
      await deps.events.release(claim.event.id);
      throw unavailable(claim.event, 'indeterminada');
  }
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
