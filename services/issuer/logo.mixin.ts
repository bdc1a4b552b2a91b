import type { Context, ServiceSchema } from 'moleculer';
import { runtimeOf } from '../shared/runtime.js';
import type { CallerMeta } from '../shared/caller.js';
import { DomainError } from '../../lib/errors/index.js';
import { checkLogo, checkLogoEmbeddable } from '../../lib/issuer/logo.js';
import { logoUploadSchema } from '../../lib/issuer/schema.js';
import { partnerOf } from './caller.js';
import type { IssuerSelf } from './service-this.js';

type Ctx<P = Record<string, any>> = Context<P, CallerMeta & { $responseType?: string }>;

const uuidParam = { type: 'uuid' } as const;
const logoSummary = { type: 'object', properties: { issuerId: { type: 'string', format: 'uuid' }, logo: { type: ['object', 'null'], properties: { tipo: { type: 'string', enum: ['image/png', 'image/jpeg'] }, largura: { type: 'integer' }, altura: { type: 'integer' }, bytes: { type: 'integer' } } } } };
const TAGS = ['emissores'];

/**
 * The issuer's logo for the DANFE (issue 22 item 4): PUT / GET / DELETE /v1/companies/:id/logo,
 * beside the certificate routes, and `logoForPrint` for the emission service (which never reads
 * this service's tables). The checks are lib/issuer/logo.ts, all before anything is stored.
 */
export const LogoMixin: Partial<ServiceSchema> = {
  actions: {
    uploadLogo: {
      rest: 'PUT /companies/:id/logo',
      params: logoUploadSchema,
      openapi: {
        summary: 'Envia (ou troca) o logotipo do emissor, impresso no DANFE da NF-e', tags: TAGS,
        description: 'Corpo JSON com `imagemBase64`: PNG ou JPEG reconhecido pela assinatura do arquivo, até 256 KB, de 32 a 2000 pixels de largura e de altura. '
          + 'Recusas 422: LOGO_FORMATO_INVALIDO, LOGO_GRANDE_DEMAIS, LOGO_DIMENSOES_INVALIDAS. Vale para os DANFEs gerados depois, inclusive de notas já autorizadas.',
        response: logoSummary,
        // A real 32 × 32 PNG (the smallest size accepted).
        requestExample: { imagemBase64: 'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAR0lEQVR4AcXBAQEAIAyAME4My1nSfj4G25z7PiGJSUxiEpOYxCQmMYlJTGISk5jEJCYxiUlMYhKTmMQkJjGJSUxiEpOYxCS2FNsCbJqy8REAAAAASUVORK5CYII=' },
      },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string; imagemBase64: string }>) {
        const { id } = ctx.params;
        await this.loadOperable(ctx, id);
        const bytes = Buffer.from(ctx.params.imagemBase64.replace(/\s+/g, ''), 'base64');
        const info = checkLogo(bytes);
        await checkLogoEmbeddable(bytes);
        await this.knex(this.t('issuers')).where({ id, partner_id: partnerOf(ctx) }).whereNull('deleted_at')
          .update({ logo: bytes, logo_mime: info.mime, updated_at: runtimeOf(this.broker).clock.now() });
        await this.issuersChanged([id]);
        return { issuerId: id, logo: { tipo: info.mime, largura: info.width, altura: info.height, bytes: info.bytes } };
      },
    },

    getLogo: {
      rest: 'GET /companies/:id/logo',
      params: { id: uuidParam },
      raw: true,
      openapi: { summary: 'Logotipo do emissor, como enviado', tags: TAGS, description: 'A imagem (image/png ou image/jpeg). Sem logotipo: 404 LOGO_AUSENTE.', responseContentType: 'image/png' },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string }>) {
        await this.loadOperable(ctx, ctx.params.id);
        const row = await this.knex(this.t('issuers')).select('logo', 'logo_mime').where({ id: ctx.params.id }).first();
        if (!row?.logo) throw new DomainError('LOGO_AUSENTE');
        ctx.meta.$responseType = row.logo_mime;
        return Buffer.from(row.logo);
      },
    },

    removeLogo: {
      rest: 'DELETE /companies/:id/logo',
      params: { id: uuidParam },
      openapi: { summary: 'Remove o logotipo do emissor', tags: TAGS, description: 'Os DANFEs gerados depois saem sem logotipo. Idempotente.', response: logoSummary },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string }>) {
        await this.loadOperable(ctx, ctx.params.id);
        await this.knex(this.t('issuers')).where({ id: ctx.params.id, partner_id: partnerOf(ctx) })
          .update({ logo: null, logo_mime: null, updated_at: runtimeOf(this.broker).clock.now() });
        await this.issuersChanged([ctx.params.id]);
        return { issuerId: ctx.params.id, logo: null };
      },
    },

    /** The logo for a DANFE, base64 (it travels over the transporter as JSON); null without one. */
    logoForPrint: {
      visibility: 'public',
      params: { partnerId: 'string', issuerId: 'string' },
      async handler(this: IssuerSelf, ctx: Context<{ partnerId: string; issuerId: string }>) {
        const row = await this.knex(this.t('issuers')).select('logo', 'logo_mime').where({ id: ctx.params.issuerId, partner_id: ctx.params.partnerId }).first();
        return row?.logo ? { base64: Buffer.from(row.logo).toString('base64'), mime: row.logo_mime } : null;
      },
    },
  },
};
