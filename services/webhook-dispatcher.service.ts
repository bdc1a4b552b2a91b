import { randomUUID } from 'node:crypto';
import type { Context, Service, ServiceSchema } from 'moleculer';
import { DbMixin } from './mixins/db.mixin.js';
import { EVENTS_CHANNEL, type OutboxEvent } from './mixins/outbox.mixin.js';
import { migrations } from '../migrations/webhooks/index.js';
import { metricsOf } from './shared/metrics.js';
import { runtimeOf } from './shared/runtime.js';
import { DomainError, validationError } from '../lib/errors/index.js';
import { TEST_EVENT_TYPE } from '../lib/webhooks/events.js';
import { isSuccessStatus } from '../lib/webhooks/backoff.js';
import { signWebhookBody } from '../lib/webhooks/signature.js';
import { openSecret } from '../lib/webhooks/secret-box.js';
import { checkResolvedAddresses, checkWebhookUrl, hostOf } from '../lib/webhooks/url-policy.js';
import { configJson, configPatchSchema, deliveryJson, emptySchema, limitSchema } from '../lib/webhooks/schemas.js';
import { ConfigStore, secretAad, viewOf } from './webhooks/config-store.js';
import { ConfigCacheMixin } from './webhooks/config-cache.js';
import { DlqActionsMixin } from './webhooks/dlq-actions.js';
import { dispatcher, partnerOf, type Ctx, type Dispatcher } from './webhooks/dispatcher-this.js';
import { DeliveryStore, type ClaimedAttempt } from './webhooks/delivery-store.js';
import { acceptAll, acceptOne, type AcceptDeps } from './webhooks/accept.js';
import { postWebhook, resolveAll, WebhookAgents } from './webhooks/post-webhook.js';
import { purgeFinished } from './webhooks/purge.js';
import { purgeRules } from '../lib/webhooks/retention.js';
import { LogThrottle } from './shared/log-throttle.js';

const SCHEMA = 'webhooks';
const CLAIM_BATCH = 20;
const PURGE = { batchSize: 500, maxBatches: 200 };
/** acceptEvents gives up after this many events in a row could not be stored (the database is down). */
const ACCEPT_FAILURES_IN_A_ROW = 3;
const tags = ['webhooks'];

/**
 * webhook-dispatcher: per-partner webhook configuration and at-least-once delivery of public
 * events (API.md, Events). The producers' outbox relays hand events over with `acceptEvents`, which
 * answers once each has become a delivery row in Postgres (the relay marks its row published only
 * then); every node's scheduler claims due attempts with SKIP LOCKED, so the schedule survives any
 * restart and two nodes never send the same attempt. The `fiscal.events` Streams channel is still
 * consumed for events an earlier version published there.
 */
const WebhookDispatcher: ServiceSchema = {
  name: 'webhook-dispatcher',
  version: 1,
  settings: { rest: '/' },
  mixins: [DbMixin({ schema: SCHEMA, migrations }), ConfigCacheMixin, DlqActionsMixin],

  channels: {
    // Events published to the stream by nodes of an earlier version (rolling upgrade); this version's relays call acceptEvents.
    [EVENTS_CHANNEL]: {
      group: 'webhook-dispatcher',
      // Each message is one short insert; 16 in parallel per node keeps ingestion ahead of bursts
      // (the default of 1 serialises the stream, and the in-process adapter drops beyond its queue).
      maxInFlight: 16,
      // A nacked message (database down) is claimed again by the group after a minute, for about a
      // day; only then is it parked in a Redis dead-letter stream, never silently dropped.
      redis: { minIdleTime: 60_000, claimInterval: 1_000 },
      maxRetries: 1_440,
      deadLettering: { enabled: true, queueName: 'fiscal.events.webhook-dispatcher.dead' },
      async handler(this: Dispatcher, event: OutboxEvent) {
        if (await this.acceptEvent(event)) this.nudge();
      },
    },
  } as any,

  actions: {
    getConfig: {
      rest: 'GET /webhooks/config',
      params: emptySchema,
      openapi: { summary: 'Configuração de webhook do parceiro', description: 'webhookSecret sempre mascarado (whsec_ab...xy); revealedOnce é false. events vazio = todos os eventos exceto sefaz.status.changed.', tags, response: configJson },
      async handler(this: Dispatcher, ctx: Ctx) {
        return viewOf(await this.configs().get(partnerOf(ctx)));
      },
    },

    patchConfig: {
      rest: 'PATCH /webhooks/config',
      refuseTestKey: 'AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK',
      params: configPatchSchema,
      openapi: {
        summary: 'Define webhookUrl e events',
        description: 'Sem campo secret (400). O segredo é gerado pelo serviço e revelado por inteiro só quando a URL é criada para um parceiro sem segredo (revealedOnce: true); depois vem mascarado. https obrigatório em produção; destinos privados/loopback recusados (422 WEBHOOK_URL_NAO_PERMITIDA). Chave ek_test_: 403.',
        tags, response: configJson,
      },
      async handler(this: Dispatcher, ctx: Ctx<{ webhookUrl?: string | null; events?: string[] | null }>) {
        const partnerId = partnerOf(ctx, true);
        if (ctx.params.webhookUrl != null) await this.checkTarget(ctx.params.webhookUrl);
        const view = await this.configs().patch(partnerId, ctx.params, this.now());
        await this.configsChanged([partnerId]);
        return view;
      },
    },

    regenerateSecret: {
      rest: 'POST /webhooks/secret/regenerate',
      refuseTestKey: 'AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK',
      idempotency: false,
      params: emptySchema,
      openapi: { summary: 'Gera um novo segredo', description: 'Responde só { webhookSecret, revealedOnce: true }; o segredo anterior deixa de assinar na hora. Chave ek_test_: 403.', tags, response: { type: 'object', properties: { webhookSecret: { type: 'string' }, revealedOnce: { const: true } } } },
      async handler(this: Dispatcher, ctx: Ctx) {
        const partnerId = partnerOf(ctx, true);
        const webhookSecret = await this.configs().regenerate(partnerId, this.now());
        await this.configsChanged([partnerId]);
        return { webhookSecret, revealedOnce: true };
      },
    },

    sendTest: {
      rest: 'POST /webhooks/test',
      params: emptySchema,
      openapi: { summary: 'Envia uma entrega de teste assinada', description: `Evento ${TEST_EVENT_TYPE}, uma única tentativa (sem novas tentativas nem DLQ); responde a entrega com o resultado. Aberto a ek_test_.`, tags, response: deliveryJson },
      async handler(this: Dispatcher, ctx: Ctx) {
        const partnerId = partnerOf(ctx);
        const config = await this.configs().get(partnerId);
        if (!config?.webhookUrl) throw new DomainError('WEBHOOK_NAO_CONFIGURADO');
        const now = this.now();
        const event = { id: randomUUID(), type: TEST_EVENT_TYPE, timestamp: now.toISOString(), data: { message: 'Entrega de teste do webhook.' } };
        const id = await this.deliveries().enqueue({ partnerId, eventId: event.id, type: event.type, body: JSON.stringify(event), maxAttempts: 1, now });
        // null only when (partner, event id) was taken: impossible for a fresh random id.
        if (!id) throw new Error(`test delivery ${event.id} not recorded`);
        await this.processDue(id);
        return this.awaitSettled(partnerId, id);
      },
    },

    logs: {
      rest: 'GET /webhooks/logs',
      params: limitSchema,
      openapi: { summary: 'Últimas entregas', description: 'Lista simples (sem envelope de paginação), mais recentes primeiro, com as tentativas (status HTTP, latência, horários).', tags, response: { type: 'array', items: deliveryJson } },
      async handler(this: Dispatcher, ctx: Ctx<{ limit: number }>) {
        return this.deliveries().logs(partnerOf(ctx), ctx.params.limit);
      },
    },

    /**
     * The outbox relays' entry (services/mixins/outbox.mixin.ts): stores the deliveries of these
     * events and answers with the ids now committed (a malformed event counts: it is dropped), so a
     * relay marks only those rows published. Idempotent per (partner, event id). The batch is
     * stored in one go (a configs query and an insert); if that fails, event by event, so one
     * event that cannot be stored does not hold the others back; a few failures in a row (the
     * database down) end the call, and the rest are offered again by the relay's next poll.
     * The scheduler is nudged only when a delivery was recorded (most partners have no webhook).
     */
    acceptEvents: {
      visibility: 'public',
      params: { events: { type: 'array', max: 500, items: 'any' } },
      async handler(this: Dispatcher, ctx: Context<{ events: OutboxEvent[] }>) {
        const { events } = ctx.params;
        let enqueued = 0;
        let accepted: string[] = [];
        try {
          enqueued = await this.acceptBatch(events);
          accepted = events.map((event) => String(event?.id));
        } catch {
          // Which event failed, or whether the database is down, is told apart (and logged) below.
          let failedInARow = 0;
          for (const event of events) {
            try {
              enqueued += await this.acceptEvent(event);
              accepted.push(String(event?.id));
              failedInARow = 0;
            } catch (err) {
              const log = (this._acceptLog ??= new LogThrottle(60_000)).take('accept');
              if (log) this.logger.warn({ err: (err as Error).message, eventId: event?.id, failuresSinceLastWarning: log.suppressed }, 'event not stored; the producer offers it again');
              if (++failedInARow >= ACCEPT_FAILURES_IN_A_ROW) break;
            }
          }
        }
        if (enqueued) this.nudge();
        return { accepted };
      },
    },

    /** Processes every due attempt now (the timer does the same); tests drive the schedule with it. */
    runDue: {
      visibility: 'public',
      async handler(this: Dispatcher) {
        return { processed: await this.processDue() };
      },
    },

    /** Deletes finished deliveries past retention now (the retention timer does the same). */
    purgeExpired: {
      visibility: 'public',
      async handler(this: Dispatcher) {
        return { purged: await this.runRetention() };
      },
    },
  },

  methods: {
    now(this: Dispatcher): Date {
      return runtimeOf(this.broker).clock.now();
    },
    configs(this: Dispatcher): ConfigStore {
      return (this._configs ??= new ConfigStore(this.knex, SCHEMA, runtimeOf(this.broker).config.encryptionKeys));
    },
    deliveries(this: Dispatcher): DeliveryStore {
      return (this._deliveries ??= new DeliveryStore(this.knex, SCHEMA));
    },
    /** Kept-alive connection pools of this node, closed when the service stops. */
    agents(this: Dispatcher): WebhookAgents {
      const { maxSocketsPerOrigin, idleSocketMs } = runtimeOf(this.broker).config.webhooks;
      return (this._agents ??= new WebhookAgents({ maxSocketsPerOrigin, idleSocketMs }));
    },

    /** URL policy and SSRF guard at configuration time (the connection checks again). */
    async checkTarget(this: Dispatcher, raw: string): Promise<void> {
      const policy = runtimeOf(this.broker).config.webhooks;
      const syntax = checkWebhookUrl(raw, policy);
      if (!syntax.ok) throw validationError([{ field: 'webhookUrl', message: syntax.message }]);
      let addresses: string[];
      try {
        addresses = await resolveAll(hostOf(syntax.url));
      } catch {
        throw new DomainError('WEBHOOK_URL_NAO_PERMITIDA', undefined, 'Host do webhookUrl não resolve.');
      }
      const check = checkResolvedAddresses(addresses, policy.allowPrivateTargets);
      if (!check.ok) throw new DomainError('WEBHOOK_URL_NAO_PERMITIDA', undefined, check.message);
    },

    /** The dispatcher's side of services/webhooks/accept.ts. */
    acceptDeps(this: Dispatcher): AcceptDeps {
      return {
        configs: this.configReader(), deliveries: this.deliveries(), now: () => this.now(),
        dropped: (event: any) => this.logger.warn({ id: event?.id, type: event?.type }, 'malformed event on fiscal.events dropped'),
      };
    },
    /** One event's deliveries (how many are new); the caller nudges the scheduler. */
    acceptEvent(this: Dispatcher, event: OutboxEvent): Promise<number> {
      return acceptOne(this.acceptDeps(), event);
    },
    /** A relay's batch of events' deliveries, all or none (how many are new). */
    acceptBatch(this: Dispatcher, events: OutboxEvent[]): Promise<number> {
      return acceptAll(this.acceptDeps(), events);
    },

    /**
     * Claims and sends due attempts until none is due; returns how many were sent. A pipeline, not
     * rounds: up to CLAIM_BATCH attempts in flight, each partner at most maxSocketsPerOrigin of
     * them, and a freed slot is claimed again at once. A receiver that hangs until the timeout used
     * to hold its whole round, so every other partner's deliveries waited for it (60 hanging
     * deliveries ahead: 6 s with a 2 s timeout, 30 s with the default 10 s).
     */
    async processDue(this: Dispatcher, onlyId?: string): Promise<number> {
      const { config } = runtimeOf(this.broker);
      const store: DeliveryStore = this.deliveries();
      const max = config.webhooks.maxSocketsPerOrigin;
      const inFlight = new Set<Promise<void>>();
      const perPartner = new Map<string, number>();
      let failure: unknown;
      let total = 0;
      let claimAgain = true;
      // Partners at their bound when last claimed (the claim skipped their due rows), and whether one has a slot again.
      let held: string[] = [];
      const eased = () => held.some((partner) => (perPartner.get(partner) ?? 0) < max);
      for (let claims = 0; claims < 1_000; claims++) {
        // A stopping node claims nothing more; what is in flight still records its result.
        const room = this.stopping ? 0 : CLAIM_BATCH - inFlight.size;
        if (claimAgain && room > 0) {
          held = [...perPartner].filter(([, n]) => n >= max).map(([partner]) => partner);
          const claimed = await store.claimDue({
            now: this.now(), leaseMs: config.webhooks.timeoutMs + 60_000, nodeId: this.broker.nodeID, limit: room, onlyId, perPartner: { max, inFlight: perPartner },
          });
          for (const c of claimed) {
            perPartner.set(c.partnerId, (perPartner.get(c.partnerId) ?? 0) + 1);
            // Never rejects: a failure is kept for the end, after every attempt in flight has settled.
            const sending: Promise<void> = this.sendAttempt(c).catch((err: unknown) => { failure ??= err; }).finally(() => {
              inFlight.delete(sending);
              const left = perPartner.get(c.partnerId)! - 1;
              if (left > 0) perPartner.set(c.partnerId, left);
              else perPartner.delete(c.partnerId);
            });
            inFlight.add(sending);
          }
          total += claimed.length;
          if (onlyId) break;
          // Until a claim finds nothing, and again at once if a partner it skipped got a slot meanwhile.
          claimAgain = claimed.length > 0 || eased();
          if (claimAgain) continue;
        }
        if (!inFlight.size) break;
        // Claim again on a tick (new attempts may be due), or once a slot frees for what was held
        // back (a full pipeline, a partner at its bound); a finished attempt alone makes none due.
        const full = room <= 0;
        const woken = await Promise.race([...[...inFlight].map((p) => p.then(() => false)), new Promise<boolean>((wake) => { this.wakeUp = () => wake(true); })]);
        this.wakeUp = undefined;
        claimAgain = woken || full || eased();
      }
      await Promise.all(inFlight);
      if (failure) throw failure;
      return total;
    },

    /** One POST of the event exactly as stored, signed with the partner's current secret. */
    async sendAttempt(this: Dispatcher, c: ClaimedAttempt): Promise<void> {
      const { config } = runtimeOf(this.broker);
      let result;
      if (!c.url || !c.secretSealed) {
        result = { statusCode: null, latencyMs: 0, error: 'webhook não configurado' };
      } else {
        const secret = openSecret(config.encryptionKeys, c.secretSealed, secretAad(c.partnerId));
        result = await postWebhook({
          url: c.url,
          body: c.body,
          timeoutMs: config.webhooks.timeoutMs,
          allowPrivateTargets: config.webhooks.allowPrivateTargets,
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'fiscal-api-webhooks/1',
            'X-Webhook-Signature': signWebhookBody(secret, c.body),
            'X-Webhook-Event': c.eventType,
            'X-Webhook-Delivery': c.attemptId,
          },
        }, this.agents());
      }
      const outcome = await this.deliveries().recordResult(c, this.broker.nodeID, result, isSuccessStatus(result.statusCode), this.now());
      metricsOf(this.broker).webhookAttempts.inc({ result: outcome.status === 'pending' ? 'retry' : outcome.status });
    },

    /** Test delivery answer: waits while another node's timer holds the attempt. */
    async awaitSettled(this: Dispatcher, partnerId: string, id: string) {
      // Elapsed time of this wait, not business time: the monotonic clock, not the injected one.
      const deadline = performance.now() + runtimeOf(this.broker).config.webhooks.timeoutMs + 5_000;
      for (;;) {
        const view = await this.deliveries().get(partnerId, id);
        if (!view || (view.status !== 'pending' && view.status !== 'in_flight') || performance.now() > deadline) return view;
        await new Promise((r) => setTimeout(r, 50));
      }
    },

    /** Runs the scheduler soon (after an event or a DLQ retry), unless the loop is disabled. */
    nudge(this: Dispatcher) {
      if (runtimeOf(this.broker).config.webhooks.pollMs > 0) setImmediate(() => this.tick());
    },

    tick(this: Dispatcher) {
      if (this.ticking || this.stopping) { this.tickAgain = !this.stopping; this.wakeUp?.(); return; }
      this.ticking = true;
      this.round = this.processDue()
        .catch((err: Error) => this.logger.warn({ err: err.message }, 'webhook scheduler round failed; will retry'))
        .finally(() => {
          this.ticking = false;
          if (this.tickAgain) { this.tickAgain = false; this.tick(); }
        });
    },

    /** One retention run: finished deliveries past WEBHOOK_RETENTION_* days, in batches. */
    async runRetention(this: Dispatcher): Promise<number> {
      const { deliveredDays, exhaustedDays } = runtimeOf(this.broker).config.webhooks.retention;
      return purgeFinished(this.knex, this.t('deliveries'), purgeRules(this.now(), { deliveredDays, exhaustedDays }), PURGE);
    },
  },

  started(this: Service) {
    const self = dispatcher(this);
    const { pollMs, retention } = runtimeOf(self.broker).config.webhooks;
    // The DLQ: deliveries that used up their attempts, kept until replayed or purged.
    const metrics = metricsOf(self.broker);
    self.stopMetrics = metrics.addSource(metrics.webhookDeadLetters, async (set) => {
      const row = await self.knex(self.t('deliveries')).where({ status: 'dead' }).first(self.knex.raw('count(*)::int as n'));
      set({}, Number(row?.n ?? 0));
    });
    if (pollMs > 0) {
      self.timer = setInterval(() => self.tick(), pollMs);
      self.timer.unref?.();
    }
    if (retention.intervalMs > 0) {
      // Every replica purges on its own timer; purgeFinished explains why that is safe.
      self.retentionTimer = setInterval(() => {
        if (self.stopping || self.purging) return; // a long run is not stacked on by the next tick
        self.purging = self.runRetention()
          .then((purged: number) => purged && self.logger.info({ purged }, 'webhook deliveries past retention purged'))
          .catch((err: Error) => self.logger.warn({ err: err.message }, 'webhook retention purge failed; will retry'))
          .finally(() => { self.purging = null; });
      }, retention.intervalMs);
      self.retentionTimer.unref?.();
    }
  },

  async stopped(this: Service) {
    const self = dispatcher(this);
    self.stopMetrics?.();
    self.stopping = true;
    clearInterval(self.timer);
    clearInterval(self.retentionTimer);
    // Let the round in progress record its results (each POST is bounded by the timeout) before
    // the pooled connections close.
    await Promise.all([self.round, self.purging]);
    self._agents?.destroy();
  },
};

export default WebhookDispatcher;
