import type { ServiceSchema } from 'moleculer';
import { DomainError } from '../../lib/errors/index.js';
import { deliveryIdSchema, deliveryJson, emptySchema, limitSchema } from '../../lib/webhooks/schemas.js';
import type { DeliveryStore } from './delivery-store.js';
import { partnerOf, type Ctx, type Dispatcher } from './dispatcher-this.js';

const tags = ['webhooks'];

/** The dead-letter queue's routes (API.md, Events > Delivery): deliveries that failed all 5 attempts. */
export const DlqActionsMixin: Partial<ServiceSchema> = {
  actions: {
    dlq: {
      rest: 'GET /webhooks/dlq',
      params: limitSchema,
      openapi: { summary: 'Fila de entregas mortas (DLQ)', description: 'Entregas que falharam nas 5 tentativas; sem page.', tags, response: { type: 'object', properties: { total: { type: 'integer' }, items: { type: 'array', items: deliveryJson } } } },
      async handler(this: Dispatcher, ctx: Ctx<{ limit: number }>) {
        return this.deliveries().dlq(partnerOf(ctx), ctx.params.limit);
      },
    },

    retryDead: {
      rest: 'POST /webhooks/dlq/:deliveryId/retry',
      refuseTestKey: 'AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK',
      params: deliveryIdSchema,
      openapi: { summary: 'Reagenda uma entrega morta', description: 'Novo ciclo de 5 tentativas a partir de agora. 404 se não existe; 409 ENTREGA_FORA_DA_DLQ se não está na DLQ. Chave ek_test_: 403.', tags, response: deliveryJson, errors: { 409: 'ENTREGA_FORA_DA_DLQ: a entrega não está na fila de mensagens mortas (details.status).' } },
      async handler(this: Dispatcher, ctx: Ctx<{ deliveryId: string }>) {
        const partnerId = partnerOf(ctx, true);
        const store: DeliveryStore = this.deliveries();
        const n = await store.reschedule(partnerId, this.now(), ctx.params.deliveryId);
        const view = await store.get(partnerId, ctx.params.deliveryId);
        if (!view) throw new DomainError('NOT_FOUND', undefined, 'Entrega não encontrada.');
        if (n === 0) throw new DomainError('ENTREGA_FORA_DA_DLQ', { status: view.status });
        this.nudge();
        return view;
      },
    },

    retryAllDead: {
      rest: 'POST /webhooks/dlq/retry-all',
      refuseTestKey: 'AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK',
      params: emptySchema,
      openapi: { summary: 'Reagenda todas as entregas mortas', description: 'Responde { rescheduled }. Chave ek_test_: 403.', tags, response: { type: 'object', properties: { rescheduled: { type: 'integer' } } } },
      async handler(this: Dispatcher, ctx: Ctx) {
        const partnerId = partnerOf(ctx, true);
        const rescheduled = await this.deliveries().reschedule(partnerId, this.now());
        this.nudge();
        return { rescheduled };
      },
    },

    purgeDead: {
      rest: 'DELETE /webhooks/dlq',
      refuseTestKey: 'AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK',
      params: emptySchema,
      openapi: { summary: 'Esvazia a DLQ', description: 'Apaga as entregas mortas e suas tentativas; responde { purged }. Chave ek_test_: 403.', tags, response: { type: 'object', required: ['purged'], properties: { purged: { type: 'integer', minimum: 0, description: 'Entregas mortas apagadas' } } } },
      async handler(this: Dispatcher, ctx: Ctx) {
        return { purged: await this.deliveries().purgeDead(partnerOf(ctx, true)) };
      },
    },

  },
};
