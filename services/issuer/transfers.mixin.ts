import type { Context, ServiceSchema } from 'moleculer';
import type { Knex } from 'knex';
import { randomUUID } from 'node:crypto';
import { runtimeOf } from '../shared/runtime.js';
import type { CallerMeta } from '../shared/caller.js';
import { DomainError } from '../../lib/errors/index.js';
import { isValidCnpj, normalizeCnpj } from '../../lib/issuer/documents.js';
import { transferApprovalSchema, transferListSchema, transferRejectionSchema, transferRequestSchema } from '../../lib/issuer/schema.js';
import { pageOf } from '../../lib/pagination/page.js';
import { pagedQuery, rowPosition } from '../shared/paged-query.js';
import { isUniqueViolation } from './records.js';
import { transferDoc } from './openapi-docs.js';
import { partnerOf } from './caller.js';
import type { IssuerSelf } from './service-this.js';

type Ctx<P = Record<string, any>> = Context<P, CallerMeta>;

/**
 * Transfer of a CNPJ held by another partner (issue 4, item 6): the requester records a request,
 * a SUPERADMIN approves or rejects it; approval moves the issuer record to the requester.
 */
export const TransfersMixin: Partial<ServiceSchema> = {
  actions: {
    requestTransfer: {
      rest: 'POST /companies/transfer-request',
      httpStatus: 202,
      params: transferRequestSchema,
      openapi: { ...transferDoc.request, errors: { 404: 'NOT_FOUND: CNPJ não cadastrado (crie o emissor com POST /v1/companies).', 409: 'CONFLICT: o CNPJ já pertence à sua conta.' } },
      async handler(this: IssuerSelf, ctx: Ctx<{ cnpj: string; motivo: string; contato?: string }>) {
        const partnerId = partnerOf(ctx);
        const cnpj = normalizeCnpj(ctx.params.cnpj);
        if (!isValidCnpj(cnpj)) throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'cnpj', message: 'CNPJ inválido: dígitos verificadores não conferem.' }] });
        const holder = await this.knex(this.t('issuers')).select('id', 'partner_id').where({ cnpj }).whereNull('deleted_at').first();
        if (!holder) throw new DomainError('NOT_FOUND', undefined, 'CNPJ não cadastrado: crie o emissor com POST /v1/companies.');
        if (holder.partner_id === partnerId) throw new DomainError('CONFLICT', undefined, 'Este CNPJ já pertence à sua conta.');
        const now = runtimeOf(this.broker).clock.now();
        const row = { id: randomUUID(), cnpj, issuer_id: holder.id, requester_partner_id: partnerId, holder_partner_id: holder.partner_id, motivo: ctx.params.motivo, contato: ctx.params.contato ?? null, status: 'PENDENTE', created_at: now };
        try {
          await this.knex(this.t('transfer_requests')).insert(row);
          return this.transferView(row, false);
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
          // One pending request per (CNPJ, requester): repeating the call returns the open one.
          const open = await this.knex(this.t('transfer_requests')).where({ cnpj, requester_partner_id: partnerId, status: 'PENDENTE' }).first();
          return this.transferView(open, false);
        }
      },
    },

    listTransferRequests: {
      rest: 'GET /admin/transfer-requests',
      roles: ['SUPERADMIN'],
      auth: 'jwt',
      params: transferListSchema,
      openapi: transferDoc.list,
      async handler(this: IssuerSelf, ctx: Ctx<{ status?: string; limit?: number; cursor?: string }>) {
        const { query, limit } = pagedQuery(this.knex(this.t('transfer_requests')), ctx.params);
        if (ctx.params.status) query.where({ status: ctx.params.status });
        return pageOf(await query, limit, rowPosition, (r: any) => this.transferView(r, true));
      },
    },

    approveTransferRequest: {
      rest: 'POST /admin/transfer-requests/:id/approve',
      roles: ['SUPERADMIN'],
      auth: 'jwt',
      params: transferApprovalSchema,
      openapi: { ...transferDoc.approve, errors: { 409: 'CONFLICT: solicitação já decidida (details.status), ou o emissor mudou de conta desde a solicitação.' } },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string }>) {
        return this.decideTransfer(ctx, 'APROVADA', null);
      },
    },

    rejectTransferRequest: {
      rest: 'POST /admin/transfer-requests/:id/reject',
      roles: ['SUPERADMIN'],
      auth: 'jwt',
      params: transferRejectionSchema,
      openapi: { ...transferDoc.reject, errors: { 409: 'CONFLICT: solicitação já decidida (details.status).' } },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string; motivo?: string }>) {
        return this.decideTransfer(ctx, 'RECUSADA', ctx.params.motivo ?? null);
      },
    },
  },
  methods: {
    async decideTransfer(this: IssuerSelf, ctx: Ctx<{ id: string }>, status: 'APROVADA' | 'RECUSADA', motivo: string | null) {
      const now = runtimeOf(this.broker).clock.now();
      const decidedBy = ctx.meta.caller?.userId ?? 'superadmin';
      const result = await this.knex.transaction(async (trx: Knex.Transaction) => {
        const req = await trx(this.t('transfer_requests')).where({ id: ctx.params.id }).forUpdate().first();
        if (!req) throw new DomainError('NOT_FOUND', undefined, 'Solicitação de transferência não encontrada.');
        if (req.status !== 'PENDENTE') throw new DomainError('CONFLICT', { status: req.status }, 'Solicitação já decidida.');
        if (status === 'APROVADA') {
          // The CNPJ moves with its record; the A1 and the CSC are the previous holder's secrets and
          // stay behind: the new holder installs its own.
          const moved = await trx(this.t('issuers')).where({ id: req.issuer_id, partner_id: req.holder_partner_id }).whereNull('deleted_at').update({
            partner_id: req.requester_partner_id, cert_summary: null, cert_pfx: null, cert_password: null, cert_fingerprint: null, cert_not_after: null,
            profile: trx.raw(`profile || '{"csc": null, "cscId": null}'::jsonb`), updated_at: now,
          });
          if (!moved) throw new DomainError('CONFLICT', undefined, 'O emissor mudou de conta desde a solicitação.');
          // Other open requests for the same CNPJ are now moot.
          await trx(this.t('transfer_requests')).where({ cnpj: req.cnpj, status: 'PENDENTE' }).whereNot({ id: req.id })
            .update({ status: 'RECUSADA', decisao_motivo: 'CNPJ transferido a outra conta.', decided_by: decidedBy, decided_at: now });
        }
        await trx(this.t('transfer_requests')).where({ id: req.id }).update({ status, decisao_motivo: motivo, decided_by: decidedBy, decided_at: now });
        return trx(this.t('transfer_requests')).where({ id: req.id }).first();
      });
      // Approved: the issuer's row moved to another partner and lost its certificate.
      if (status === 'APROVADA') await this.issuersChanged([result.issuer_id]);
      return this.transferView(result, true);
    },

    transferView(row: any, admin: boolean) {
      return {
        transferRequestId: row.id,
        cnpj: row.cnpj,
        status: row.status,
        motivo: row.motivo,
        contato: row.contato ?? null,
        createdAt: new Date(row.created_at).toISOString(),
        decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
        ...(admin ? { issuerId: row.issuer_id, requesterPartnerId: row.requester_partner_id, holderPartnerId: row.holder_partner_id, decisaoMotivo: row.decisao_motivo ?? null } : {}),
      };
    },
  },
};
