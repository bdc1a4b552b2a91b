import type { Context, LoggerInstance } from 'moleculer';
import { DomainError } from '../../../lib/errors/index.js';
import { nfseDetailView } from '../../../lib/emission/nfse/document.js';
import { nfseBodyProps } from '../../../lib/nfse/schema.js';
import type { CallerMeta } from '../../shared/caller.js';
import { runtimeOf } from '../../shared/runtime.js';
import { requestLog } from '../../shared/request-log.js';
import { emitNfse, respondNfse, type NfseDeps } from './emit.js';
import type { NfseOutcomeReporter } from '../outcome-report.js';
import { isNfseOpen, isNfseTerminal } from '../../../lib/emission/nfse/state.js';
import { isInFlight, transmissionInFlightError } from '../../../lib/emission/transmission.js';
import { danfse, listNfse, nfseListParams, nfseXml, ownNfse, type NfseListQuery } from './queries.js';
import { NFSE_EMIT_DESCRIPTION, NFSE_IDEMPOTENCY_DESCRIPTION, NFSE_REQUEST_EXAMPLE, NFSE_RESPONSE_EXAMPLE, nfseDetailDoc, nfseListDoc, nfseResponseDoc } from './openapi-docs.js';
import { reconcileNfse } from './transmit.js';
import type { NfseStore } from './store.js';
import type { NfseEventStore } from './event-store.js';
import { cancelNfse, reconcileCancellation } from './cancel.js';
import { resolveServicoAction } from './resolve-servico.js';
import type { Bulkhead } from '../../shared/bulkhead.js';
import { fiscalTextRule, JUSTIFICATIVA_MAX, JUSTIFICATIVA_MIN } from '../../../lib/emission/fiscal-text.js';
import { partnerOf, readerOf } from '../reader.js';
import type { PrintPool } from '../print-pool.js';

/**
 * The NFS-e routes of the emission service (issue 16), spread into its `actions`. Handlers wire
 * I/O; the flow is ./emit.ts and ./transmit.ts, the decisions lib/emission/nfse and lib/nfse.
 */
type Ctx<P = Record<string, unknown>> = Context<P, CallerMeta & { $responseType?: string; $responseHeaders?: Record<string, string> }>;

interface NfseService {
  nfse: NfseStore;
  /** The issuer's numbering slots, shared with NF-e (services/emission/numbering-slots.ts). */
  numbering?: Bulkhead;
  /** The issuer's in-flight places, shared with NF-e (services/emission/numbering-slots.ts inFlightPlace). */
  inFlight?: Bulkhead;
  nfseEvents: NfseEventStore;
  onNfseOutcome?: (logger: LoggerInstance) => NfseOutcomeReporter;
  /** The DANFSe's PDF thread (services/emission/print-pool.ts). */
  printPool: PrintPool;
  broker: Context['broker'];
  logger: Context['broker']['logger'];
}

export function nfseDeps(svc: NfseService, ctx?: Ctx<any>): NfseDeps {
  const log = requestLog(svc.logger, ctx?.requestID);
  return {
    nfse: svc.nfse, ...(svc.numbering ? { numbering: svc.numbering } : {}), ...(svc.inFlight ? { inFlight: svc.inFlight } : {}), calls: ctx ?? svc.broker, now: () => runtimeOf(svc.broker).clock.now(), ...(svc.onNfseOutcome ? { onOutcome: svc.onNfseOutcome(log) } : {}),
    reportFault: (err: any, nfseId: string) => log.error({ err: { name: err?.name, message: err?.message, stack: err?.stack }, nfseId }, 'NFS-e emission failed after numbering'),
  };
}

const idParam = { id: 'string' } as const;

function danfseAction(format: 'pdf' | 'html') {
  return {
    rest: `GET /nfse/:id/danfse.${format}`,
    params: idParam,
    raw: true,
    openapi: {
      summary: `DANFSe em ${format === 'pdf' ? 'PDF (A4)' : 'HTML'}`, tags: ['documentos'], responseContentType: format === 'pdf' ? 'application/pdf' : 'text/html',
      description: 'Documento auxiliar da NFS-e (leiaute nacional DANFSe v1.0), gerado do XML da NFS-e: chave com código de barras e QR Code da consulta pública, prestador, tomador, '
        + 'serviço, tributação municipal e federal, valores e informações complementares. AUTHORIZED e CANCELADA (com a marca CANCELADA); homologação traz NFS-e SEM VALIDADE JURÍDICA. '
        + 'Outros status: 409 DOCUMENTO_SEM_DANFE (details.status).',
      errors: { 409: 'DOCUMENTO_SEM_DANFE: NFS-e fora de AUTHORIZED e CANCELADA (details.status).' },
    },
    async handler(this: NfseService, ctx: Ctx<{ id: string }>) {
      const doc = await ownNfse(this.nfse, readerOf(ctx), ctx.params.id);
      const out = await danfse(this.nfse, doc, format, this.printPool.rendererFor(doc.partnerId));
      ctx.meta.$responseType = out.contentType;
      ctx.meta.$responseHeaders = { 'Content-Disposition': out.disposition };
      return out.body;
    },
  };
}

export const nfseActions = {
  emitNfse: {
    rest: 'POST /nfse',
    httpStatus: 201,
    // The key is bound to the DPS in the numbering transaction (services/emission/idempotent-retry.ts).
    idempotency: 'document' as const,
    idempotencyLookup: { action: 'v1.emission.boundNfse', idField: 'nfseId' as const },
    openapi: {
      summary: 'Emite NFS-e (padrão nacional, DPS 1.01)', description: NFSE_EMIT_DESCRIPTION, tags: ['documentos'],
      body: nfseBodyProps, requestExample: NFSE_REQUEST_EXAMPLE, response: nfseResponseDoc, responseExample: NFSE_RESPONSE_EXAMPLE,
      headers: [{ name: 'Idempotency-Key', description: NFSE_IDEMPOTENCY_DESCRIPTION }],
      // The gateway names the created NFS-e (services/gateway/body.ts setLocation, from links.self).
      location: '/v1/nfse/{id}',
      errors: { 404: 'NOT_FOUND: issuerId de outro parceiro ou inexistente.' },
    },
    async handler(this: NfseService, ctx: Ctx) {
      const { partnerId, keyKind } = partnerOf(ctx);
      const view = await emitNfse(nfseDeps(this, ctx), { partnerId, keyKind, body: ctx.params, idempotencyKey: ctx.meta.idempotencyKey ?? null, keyFirstUse: ctx.meta.idempotencyFirstUse === true });
      // A DPS still open changes: a retry must see it then, not this answer replayed.
      if (!isNfseTerminal(view.status)) ctx.meta.$idempotencyKeep = false;
      return view;
    },
  },

  /** The DPS an Idempotency-Key is bound to, `{ nfseId, status }` or null: the gateway names it in a 5xx it answers itself. */
  boundNfse: {
    visibility: 'public' as const,
    params: { partnerId: 'string', key: 'string' },
    async handler(this: NfseService, ctx: Ctx<{ partnerId: string; key: string }>) {
      const found = await this.nfse.findByIdempotencyKey(ctx.params.partnerId, ctx.params.key);
      return found ? { nfseId: found.doc.id, status: found.doc.status } : null;
    },
  },

  listNfse: {
    rest: 'GET /nfse',
    params: nfseListParams,
    openapi: {
      summary: 'Lista NFS-e', tags: ['documentos'], response: nfseListDoc, responseExample: { items: [], nextCursor: null },
      description: 'Mais recentes primeiro; paginação por cursor (nextCursor → cursor). `status` e `situacao` não combinam (400). '
        + '`situacao=indeterminada`: DPS numeradas sem resultado final (CREATED, TRANSMITTING, ERROR), com idDps, status bruto, updatedAt, proximaVerificacaoEm e motivo. '
        + 'Uma chave ek_test_ lista só NFS-e emitidas em homologação, ou as de um emissor sandbox nomeado em issuerId; nomear um emissor em produção não sandbox responde 403 '
        + 'CHAVE_TESTE_EMISSOR_PRODUCAO, como a leitura de uma NFS-e que ele emitiu em produção.',
    },
    async handler(this: NfseService, ctx: Ctx<NfseListQuery>) {
      return listNfse(this.nfse, readerOf(ctx), ctx.params);
    },
  },

  getNfse: {
    rest: 'GET /nfse/:id',
    params: idParam,
    openapi: {
      summary: 'Consulta uma NFS-e (use após timeout, em vez de reemitir)', tags: ['documentos'], response: nfseDetailDoc,
      responseExample: { ...NFSE_RESPONSE_EXAMPLE, ambiente: 2, situacao: null, authorizedAt: '2026-11-22T20:40:01.000Z', canceladaEm: null, erros: null, motivo: null, proximaVerificacaoEm: null, updatedAt: '2026-11-22T20:40:01.000Z' },
    },
    async handler(this: NfseService, ctx: Ctx<{ id: string }>) {
      return nfseDetailView(await ownNfse(this.nfse, readerOf(ctx), ctx.params.id));
    },
  },

  nfseXml: {
    rest: 'GET /nfse/:id/xml',
    params: idParam,
    raw: true,
    openapi: {
      summary: 'XML da NFS-e autorizada (ou cancelada), ou a DPS assinada de uma rejeição; outros status 409', tags: ['documentos'], responseContentType: 'application/xml',
      errors: { 409: 'CONFLICT: NFS-e sem XML no estado atual (details.status).' },
    },
    async handler(this: NfseService, ctx: Ctx<{ id: string }>) {
      const doc = await ownNfse(this.nfse, readerOf(ctx), ctx.params.id);
      const { xml, filename } = await nfseXml(this.nfse, doc);
      ctx.meta.$responseType = 'application/xml; charset=utf-8';
      ctx.meta.$responseHeaders = { 'Content-Disposition': `attachment; filename="${filename}"` };
      return xml;
    },
  },

  resendNfse: {
    rest: 'POST /nfse/:id/reenvio',
    params: { $$strict: true, id: 'string' },
    openapi: {
      summary: 'Reenvia agora a mesma DPS de uma NFS-e sem resultado (CREATED, TRANSMITTING vencida, ERROR)', tags: ['documentos'], response: nfseDetailDoc,
      description: 'O que a reconciliação faria no próximo horário, já: consulta a Sefin pelo idDps e, se ela não conhece a DPS, envia a mesma DPS assinada (mesmo nDPS e idDps; nada é renumerado). '
        + 'NFS-e com resultado final: 200 com ela, nada é enviado. Transmissão ainda em curso: 409 DOCUMENTO_EM_TRANSMISSAO. Rejeição: 400 BAD_REQUEST com erros[] como na emissão.',
      errors: { 409: 'DOCUMENTO_EM_TRANSMISSAO: transmissão da DPS ainda em curso.' },
      responseExample: { ...NFSE_RESPONSE_EXAMPLE, ambiente: 2, situacao: null, authorizedAt: '2026-11-22T20:40:01.000Z', canceladaEm: null, erros: null, motivo: null, proximaVerificacaoEm: null, updatedAt: '2026-11-22T20:40:01.000Z' },
    },
    async handler(this: NfseService, ctx: Ctx<{ id: string }>) {
      const doc = await ownNfse(this.nfse, readerOf(ctx), ctx.params.id);
      if (!isNfseOpen(doc.status)) return nfseDetailView(doc);
      const now = runtimeOf(this.broker).clock.now();
      if (isInFlight(doc, now)) throw transmissionInFlightError({ id: doc.id, status: doc.status, number: doc.nDps, series: doc.serie });
      const after = await reconcileNfse(nfseDeps(this, ctx), doc);
      respondNfse(after); // a rejection answers as the emission does
      return nfseDetailView(after);
    },
  },

  nfseDanfsePdf: danfseAction('pdf'),
  nfseDanfseHtml: danfseAction('html'),

  cancelNfse: {
    rest: 'POST /nfse/:id/cancelamento',
    params: {
      $$strict: true, id: 'string',
      justificativa: fiscalTextRule(JUSTIFICATIVA_MIN, JUSTIFICATIVA_MAX, 'xMotivo do evento e101101: 15 a 255 caracteres imprimíveis.'),
      codigoMotivo: { type: 'enum', values: [1, 2, 9], optional: true, default: 1, description: 'cMotivo: 1 erro na emissão (padrão), 2 serviço não prestado, 9 outros.' },
    },
    openapi: {
      summary: 'Cancela NFS-e autorizada (evento e101101)', tags: ['eventos'],
      description: 'Evento e101101 assinado com o A1 do emissor e registrado na Sefin Nacional. Só NFS-e AUTHORIZED (senão 422 DOCUMENTO_NAO_CANCELAVEL com details.status). '
        + 'Registrado: 200, a NFS-e fica CANCELADA e invoice.canceled (nfseId, model NFSe) é gravado no mesmo commit. Repetir numa NFS-e CANCELADA devolve o cancelamento registrado, sem envio. '
        + 'Rejeição: 422 EVENTO_REJEITADO com erros[] verbatim da Sefin. Sem resposta: 503 AUTORIDADE_INDISPONIVEL (details.situacao nao_enviado|indeterminada, eventoId): '
        + 'repetir a mesma requisição conclui o mesmo evento — indeterminada: consulta a NFS-e na Sefin antes e, se o cancelamento já foi registrado, responde 200 sem reenviar; '
        + 'senão reenvia o mesmo evento assinado. Um cancelamento indeterminada também é concluído sozinho pela reconciliação (consulta à Sefin a partir de 2 min; registrado: CANCELADA e invoice.canceled). '
        + 'Durante um envio: 409 EVENTO_EM_TRANSMISSAO.',
      errors: { 409: 'EVENTO_EM_TRANSMISSAO: um envio do cancelamento ainda em curso.' },
      requestExample: { justificativa: 'Servico faturado em duplicidade para o tomador', codigoMotivo: 1 },
      response: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' }, tipo: { enum: ['cancelamento'] }, evento: { enum: ['e101101'] }, status: { enum: ['PENDING', 'REGISTERED', 'REJECTED'] },
          codigoMotivo: { enum: [1, 2, 9] }, justificativa: { type: 'string' }, registradoEm: { type: ['string', 'null'], format: 'date-time' },
          links: { type: 'object', properties: { xml: { type: 'string' } } }, documento: nfseDetailDoc,
        },
      },
      responseExample: {
        id: '0c8f8d6e-7f2a-4d59-9a3e-3c1b2d4e5f60', tipo: 'cancelamento', evento: 'e101101', status: 'REGISTERED', codigoMotivo: 1,
        justificativa: 'Servico faturado em duplicidade para o tomador', registradoEm: '2026-11-22T21:00:00.000Z',
        links: { xml: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/cancelamento/xml' }, documento: { ...NFSE_RESPONSE_EXAMPLE, status: 'CANCELADA' },
      },
    },
    async handler(this: NfseService, ctx: Ctx<{ id: string; justificativa: string; codigoMotivo: 1 | 2 | 9 }>) {
      const { partnerId } = partnerOf(ctx);
      return cancelNfse({ ...nfseDeps(this, ctx), events: this.nfseEvents }, { partnerId, id: ctx.params.id, justificativa: ctx.params.justificativa, codigoMotivo: ctx.params.codigoMotivo });
    },
  },

  nfseCancelXml: {
    rest: 'GET /nfse/:id/cancelamento/xml',
    params: idParam,
    raw: true,
    openapi: {
      summary: 'XML do evento de cancelamento registrado pela Sefin; 409 antes do registro', tags: ['eventos'], responseContentType: 'application/xml',
      errors: { 409: 'CONFLICT: sem evento de cancelamento registrado para esta NFS-e (details.status).' },
    },
    async handler(this: NfseService, ctx: Ctx<{ id: string }>) {
      const doc = await ownNfse(this.nfse, readerOf(ctx), ctx.params.id);
      const ev = await this.nfseEvents.registered(doc.id);
      const xml = ev ? await this.nfseEvents.eventXml(ev.id) : null;
      if (!xml) throw new DomainError('CONFLICT', { status: doc.status }, 'Sem evento de cancelamento registrado para esta NFS-e.');
      ctx.meta.$responseType = 'application/xml; charset=utf-8';
      ctx.meta.$responseHeaders = { 'Content-Disposition': `attachment; filename="${doc.chaveAcesso}-cancelamento.xml"` };
      return xml;
    },
  },

  resolveServico: resolveServicoAction,

  /** One NFS-e reconciliation round on this node (also run on the emission timer): open DPS, then cancellations without an answer. */
  reconcileNfseDue: {
    visibility: 'public' as const,
    params: { limit: { type: 'number', integer: true, min: 1, max: 500, optional: true } },
    async handler(this: NfseService, ctx: Ctx<{ limit?: number }>) {
      const claimed = await this.nfse.claimDue(ctx.params.limit ?? 50);
      const outcomes = [];
      for (const doc of claimed) {
        try {
          outcomes.push({ id: doc.id, status: (await reconcileNfse(nfseDeps(this), doc)).status });
        } catch (err) {
          this.logger.warn({ err: (err as Error).message, id: doc.id }, 'NFS-e reconciliation step failed; next slot is scheduled');
          outcomes.push({ id: doc.id, status: doc.status });
        }
      }
      // Cancellations whose answer was lost: settled by Sefin's record of the NFS-e (./cancel.ts).
      const pending = await this.nfseEvents.claimDue(ctx.params.limit ?? 50);
      const eventos = [];
      for (const event of pending) {
        try {
          eventos.push(await reconcileCancellation({ ...nfseDeps(this), events: this.nfseEvents }, event));
        } catch (err) {
          this.logger.warn({ err: (err as Error).message, id: event.id }, 'NFS-e cancellation reconciliation step failed; next slot is scheduled');
          eventos.push({ id: event.id, status: event.status });
        }
      }
      return { claimed: claimed.length, outcomes, eventos };
    },
  },
};
