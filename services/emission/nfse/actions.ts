import type { Context } from 'moleculer';
import { DomainError } from '../../../lib/errors/index.js';
import { nfseDetailView } from '../../../lib/emission/nfse/document.js';
import { nfseBodyProps } from '../../../lib/nfse/schema.js';
import type { CallerMeta } from '../../shared/caller.js';
import { runtimeOf } from '../../shared/runtime.js';
import { emitNfse, type NfseDeps } from './emit.js';
import { listNfse, nfseListParams, nfseXml, ownNfse, type NfseListQuery } from './queries.js';
import { NFSE_EMIT_DESCRIPTION, NFSE_REQUEST_EXAMPLE, NFSE_RESPONSE_EXAMPLE, nfseDetailDoc, nfseListDoc, nfseResponseDoc } from './openapi-docs.js';
import { reconcileNfse } from './transmit.js';
import type { NfseStore } from './store.js';

/**
 * The NFS-e routes of the emission service (issue 16), spread into its `actions`. Handlers wire
 * I/O; the flow is ./emit.ts and ./transmit.ts, the decisions lib/emission/nfse and lib/nfse.
 */
type Ctx<P = Record<string, unknown>> = Context<P, CallerMeta & { $responseType?: string; $responseHeaders?: Record<string, string> }>;

interface NfseService {
  nfse: NfseStore;
  broker: Context['broker'];
  logger: Context['broker']['logger'];
}

function partnerOf(ctx: Ctx<any>): { partnerId: string; keyKind: 'live' | 'test' | null } {
  const caller = ctx.meta.caller;
  if (!caller?.partnerId) throw new DomainError('FORBIDDEN', undefined, 'Credencial sem parceiro: emissão e consulta de documentos exigem um parceiro.');
  return { partnerId: caller.partnerId, keyKind: caller.keyKind };
}

export function nfseDeps(svc: NfseService, ctx?: Ctx<any>): NfseDeps {
  return { nfse: svc.nfse, calls: ctx ?? svc.broker, now: () => runtimeOf(svc.broker).clock.now() };
}

const idParam = { id: 'string' } as const;

export const nfseActions = {
  emitNfse: {
    rest: 'POST /nfse',
    httpStatus: 201,
    openapi: {
      summary: 'Emite NFS-e (padrão nacional, DPS 1.01)', description: NFSE_EMIT_DESCRIPTION, tags: ['documentos'],
      body: nfseBodyProps, requestExample: NFSE_REQUEST_EXAMPLE, response: nfseResponseDoc, responseExample: NFSE_RESPONSE_EXAMPLE,
    },
    async handler(this: NfseService, ctx: Ctx) {
      const { partnerId, keyKind } = partnerOf(ctx);
      return emitNfse(nfseDeps(this, ctx), { partnerId, keyKind, body: ctx.params, idempotencyKey: ctx.meta.idempotencyKey ?? null });
    },
  },

  listNfse: {
    rest: 'GET /nfse',
    params: nfseListParams,
    openapi: {
      summary: 'Lista NFS-e', tags: ['documentos'], response: nfseListDoc, responseExample: { items: [], nextCursor: null },
      description: 'Mais recentes primeiro; paginação por cursor (nextCursor → cursor). `status` e `situacao` não combinam (400). '
        + '`situacao=indeterminada`: DPS numeradas sem resultado final (CREATED, TRANSMITTING, ERROR), com idDps, status bruto, updatedAt, proximaVerificacaoEm e motivo.',
    },
    async handler(this: NfseService, ctx: Ctx<NfseListQuery>) {
      return listNfse(this.nfse, partnerOf(ctx).partnerId, ctx.params);
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
      return nfseDetailView(await ownNfse(this.nfse, partnerOf(ctx).partnerId, ctx.params.id));
    },
  },

  nfseXml: {
    rest: 'GET /nfse/:id/xml',
    params: idParam,
    raw: true,
    openapi: { summary: 'XML da NFS-e autorizada (ou cancelada), ou a DPS assinada de uma rejeição; outros status 409', tags: ['documentos'], responseContentType: 'application/xml' },
    async handler(this: NfseService, ctx: Ctx<{ id: string }>) {
      const doc = await ownNfse(this.nfse, partnerOf(ctx).partnerId, ctx.params.id);
      const { xml, filename } = await nfseXml(this.nfse, doc);
      ctx.meta.$responseType = 'application/xml; charset=utf-8';
      ctx.meta.$responseHeaders = { 'Content-Disposition': `attachment; filename="${filename}"` };
      return xml;
    },
  },

  /** One NFS-e reconciliation round on this node (also run on the emission timer). */
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
      return { claimed: claimed.length, outcomes };
    },
  },
};
