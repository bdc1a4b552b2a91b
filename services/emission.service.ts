import type { Context, Service, ServiceSchema } from 'moleculer';
import { DbMixin } from './mixins/db.mixin.js';
import { OutboxMixin } from './mixins/outbox.mixin.js';
import { migrations } from '../migrations/emission/index.js';
import { runtimeOf } from './shared/runtime.js';
import { requestLog } from './shared/request-log.js';
import { DomainError } from '../lib/errors/index.js';
import type { Model } from '../lib/nfe/types.js';
import { DocumentStore } from './emission/store.js';
import { KeyAlreadyBound, type StoreDeps } from './emission/document-row.js';
import { documentPipeline } from './emission/pipeline-binding.js';
import { DraftPool } from './emission/draft-pool.js';
import type { EmissionDeps } from './emission/deps.js';
import { checkSameRequest } from '../lib/emission/idempotent-retry.js';
import { bodyFingerprint } from '../lib/idempotency/fingerprint.js';
import { reconcileOne } from './emission/transmit.js';
import { BATCH_CHANNEL, BATCH_STREAM_MAX_LEN, BatchStore, batchView, itemView } from './emission/batch.js';
import { processItem, validateBatch } from './emission/batch-worker.js';
import { metricsOf } from './shared/metrics.js';
import { nfseOutcomeReporter, outcomeReporter } from './emission/outcome-report.js';
import { stageObserver } from './emission/stage-metrics.js';
import { StageTimer } from './emission/stage-timer.js';
import { PrintPool } from './emission/print-pool.js';
import { ContingencyStore } from './emission/contingency-store.js';
import { contingencyRound } from './emission/contingency.js';
import { retransmitFailed, type AuthorityRef } from './emission/recovery.js';
import { MAX_NUMBERING_GROUP } from './emission/numbering-group.js';
import { Bulkhead } from './shared/bulkhead.js';
import { AUTHORITY_EVENTS } from './shared/authority-events.js';
import { FiscalEventStore } from './emission/event-store.js';
import { InutilizacaoStore } from './emission/inutilizacao-store.js';
import { partnerActivity } from './emission/partner-activity.js';
import {
  cancelAction, correctionAction, dacceAction, eventsAction, eventXmlAction, inutilizacaoAction, inutilizacaoXmlAction, listInutilizacaoAction,
} from './emission/event-actions.js';
import { nfseActions } from './emission/nfse/actions.js';
import { NfseStore } from './emission/nfse/store.js';
import { NfseEventStore } from './emission/nfse/event-store.js';
import { nfeBodyProps } from '../lib/nfe/schema.js';
import { NFE_BATCH_REQUEST_EXAMPLE } from './emission/openapi-examples.js';
import { emitAction, getAction, listAction, printableAction, xmlAction, type Ctx } from './emission/document-actions.js';
import { partnerOf } from './emission/reader.js';
import { emissionService, type EmissionSelf } from './emission/service-this.js';
import { isIdShaped } from '../lib/validation/uuid.js';

const SCHEMA = 'emission';
const RECONCILE_EVERY_MS = 15_000;
const SWEEP_EVERY_MS = 30_000;
const CONTINGENCY_EVERY_MS = 60_000;

/**
 * emission: NF-e, NFC-e (issue 7) and NFS-e (issue 16, services/emission/nfse/) from request to authority outcome. Handlers wire I/O; the
 * flow lives in services/emission/*.ts and the decisions in lib/emission/*.ts.
 */
const EmissionService: ServiceSchema = {
  name: 'emission',
  version: 1,
  settings: { rest: '/' },
  mixins: [DbMixin({ schema: SCHEMA, migrations }), OutboxMixin({ schema: SCHEMA })],

  actions: {
    emitNfe: emitAction('55', 'nfe'),
    emitNfce: emitAction('65', 'nfce'),
    listNfe: listAction('55', 'nfe'),
    listNfce: listAction('65', 'nfce'),
    getNfe: getAction('55', 'nfe'),
    getNfce: getAction('65', 'nfce'),
    nfeXml: xmlAction('55', 'nfe'),
    nfceXml: xmlAction('65', 'nfce'),
    nfeDanfePdf: printableAction('55', 'nfe', 'pdf'),
    nfeDanfeHtml: printableAction('55', 'nfe', 'html'),
    nfceDanfcePdf: printableAction('65', 'nfce', 'pdf'),
    nfceDanfceHtml: printableAction('65', 'nfce', 'html'),
    // Events after authorization and inutilização (services/emission/event-actions.ts).
    cancelNfe: cancelAction('55', 'nfe'),
    cancelNfce: cancelAction('65', 'nfce'),
    correctNfe: correctionAction,
    nfeEvents: eventsAction('55', 'nfe'),
    nfceEvents: eventsAction('65', 'nfce'),
    nfeEventXml: eventXmlAction('55', 'nfe'),
    nfceEventXml: eventXmlAction('65', 'nfce'),
    nfeDaccePdf: dacceAction('pdf'),
    nfeDacceHtml: dacceAction('html'),
    inutilizeNfe: inutilizacaoAction('55', 'nfe'),
    inutilizeNfce: inutilizacaoAction('65', 'nfce'),
    listNfeInutilizacoes: listInutilizacaoAction('55', 'nfe'),
    listNfceInutilizacoes: listInutilizacaoAction('65', 'nfce'),
    nfeInutilizacaoXml: inutilizacaoXmlAction('55', 'nfe'),
    nfceInutilizacaoXml: inutilizacaoXmlAction('65', 'nfce'),
    // NFS-e national standard (services/emission/nfse/).
    ...nfseActions,

    emitNfeBatch: {
      rest: 'POST /nfe/batch',
      httpStatus: 202,
      idempotency: 'document',
      params: { $$strict: true, notas: { type: 'array', min: 1, max: 500, items: 'any' } },
      openapi: {
        summary: 'Lote de NF-e: `{ notas: [...] }` (1-500)',
        description: 'Tudo ou nada: qualquer falha de validação estrita recusa o lote (400, caminhos notas[i]…) e nada é enfileirado. '
          + 'Cada nota segue a fila; preflight recusado termina o item FAILED com o envelope em resultData.error, sem consumir número.',
        tags: ['documentos'],
        body: { $$strict: true, notas: { type: 'array', min: 1, max: 500, items: { type: 'object', strict: true, props: nfeBodyProps } } },
        requestExample: NFE_BATCH_REQUEST_EXAMPLE,
      },
      async handler(this: EmissionSelf, ctx: Ctx<{ notas: unknown[] }>) {
        const { partnerId, keyKind } = partnerOf(ctx);
        // The key is bound to the batch as to a document: a retry answers the batch it queued.
        const key = ctx.meta.idempotencyKey ?? null;
        const fingerprint = key ? bodyFingerprint(ctx.params) : null;
        // A key no request used before (services/shared/caller.ts) names no batch yet: not looked for.
        const bound = key && ctx.meta.idempotencyFirstUse !== true ? await this.boundBatch(partnerId, key, fingerprint) : undefined;
        if (bound) return bound;
        const deps = this.deps(ctx);
        await validateBatch(deps, { partnerId, keyKind, model: '55', notas: ctx.params.notas });
        let created;
        try {
          created = await this.batches.create({ partnerId, keyKind, model: '55', requestId: ctx.requestID ?? batchRequestId(), notas: ctx.params.notas, idempotencyKey: key, fingerprint });
        } catch (err) {
          if (err instanceof KeyAlreadyBound && key) return this.boundBatch(partnerId, key, fingerprint);
          throw err;
        }
        for (const item of created.items) await this.enqueueItem(item.id);
        return batchView(created.batch, created.items);
      },
    },
    getNfeBatch: {
      rest: 'GET /nfe/batch/:id',
      params: { id: 'string' },
      openapi: { summary: 'Situação do lote e de cada item', tags: ['documentos'] },
      async handler(this: EmissionSelf, ctx: Ctx<{ id: string }>) {
        const batch = await this.ownBatch(ctx, ctx.params.id);
        return batchView(batch, await this.batches.items(batch.id));
      },
    },
    getNfeBatchItem: {
      rest: 'GET /nfe/batch/:id/items/:itemId',
      params: { id: 'string', itemId: 'string' },
      openapi: { summary: 'Situação de um item do lote', tags: ['documentos'] },
      async handler(this: EmissionSelf, ctx: Ctx<{ id: string; itemId: string }>) {
        const batch = await this.ownBatch(ctx, ctx.params.id);
        const item = isIdShaped(ctx.params.itemId) ? await this.batches.item(ctx.params.itemId) : undefined;
        if (!item || item.batchId !== batch.id) throw new DomainError('NOT_FOUND', undefined, 'Item não encontrado.');
        return itemView(batch, item);
      },
    },

    /** The document an Idempotency-Key is bound to, `{ invoiceId, status }` or null: the gateway names it in a 5xx it answers itself. */
    boundDocument: {
      visibility: 'public',
      params: { partnerId: 'string', model: { type: 'enum', values: ['55', '65'] }, key: 'string' },
      async handler(this: EmissionSelf, ctx: Ctx<{ partnerId: string; model: Model; key: string }>) {
        const found = await this.store.findByIdempotencyKey(ctx.params.partnerId, ctx.params.model, ctx.params.key);
        return found ? { invoiceId: found.doc.id, status: found.doc.status } : null;
      },
    },
    /** One reconciliation round on this node (also run on a timer). */
    reconcileDue: {
      visibility: 'public',
      params: { limit: { type: 'number', integer: true, min: 1, max: 500, optional: true } },
      async handler(this: EmissionSelf, ctx: Ctx<{ limit?: number }>) {
        return this.reconcileRound(ctx.params.limit ?? 50);
      },
    },
    /** One NFC-e contingency round on this node: expiry events, then due transmissions (also run on a timer). */
    contingencyDue: {
      visibility: 'public',
      params: { limit: { type: 'number', integer: true, min: 1, max: 500, optional: true } },
      async handler(this: EmissionSelf, ctx: Ctx<{ limit?: number }>) {
        return this.contingencyRound(ctx.params.limit ?? 50);
      },
    },
    /** Re-sends stale queued batch items to the channel (also run on a timer). */
    sweepBatches: {
      visibility: 'public',
      async handler(this: EmissionSelf) {
        return this.sweepRound();
      },
    },
    /**
     * Per-stage durations (ms: count, p50, p99, mean, max) of the emissions this node ran, over its
     * most recent samples; `reset: true` empties them after reading. Internal: no REST route.
     */
    stageStats: {
      visibility: 'public',
      params: { reset: { type: 'boolean', optional: true } },
      handler(this: EmissionSelf, ctx: Ctx<{ reset?: boolean }>) {
        const stats = { nodeID: this.broker.nodeID, stages: this.stages.stats() };
        if (ctx.params.reset) this.stages.reset();
        return stats;
      },
    },
    /** Whether the partner has any document (auth refuses its deactivation then: API.md, Resources > Partner). */
    partnerActivity: {
      visibility: 'public',
      params: { partnerId: 'string' },
      handler(this: EmissionSelf, ctx: Ctx<{ partnerId: string }>) {
        return partnerActivity(this.knex, SCHEMA, ctx.params.partnerId);
      },
    },
    /** Emission counters of a partner for a month (billing; test keys are counted as not billable). */
    usage: {
      visibility: 'public',
      params: { partnerId: 'string', period: { type: 'string', pattern: /^\d{4}-\d{2}$/ } },
      async handler(this: EmissionSelf, ctx: Ctx<{ partnerId: string; period: string }>) {
        return this.store.usage(ctx.params.partnerId, ctx.params.period);
      },
    },
  },

  events: {
    // The authority answers again: its notes that failed before sending go now (services/emission/recovery.ts).
    [AUTHORITY_EVENTS.recovered]: {
      async handler(this: Service, ctx: Context<AuthorityRef>): Promise<void> {
        const self = emissionService(this);
        await self.recoverFailed(ctx.params)
          .catch((err: Error) => requestLog(self.logger, ctx.requestID).warn({ err: err.message, ...ctx.params }, 'retransmission after recovery failed; reconciliation will retry'));
      },
    },
  },

  channels: {
    [BATCH_CHANNEL]: {
      group: 'emission',
      async handler(this: Service, payload: { itemId: string }) {
        await emissionService(this).runItem(payload.itemId);
      },
    },
  },

  methods: {
    deps(this: EmissionSelf, ctx?: Ctx<any>): EmissionDeps {
      const log = requestLog(this.logger, ctx?.requestID);
      return {
        store: this.store, pipeline: this.draftPool.around(documentPipeline()), calls: ctx ?? this.broker, now: () => runtimeOf(this.broker).clock.now(), stages: this.stages, contingency: this.contingency, numbering: this.numbering, inFlight: this.inFlight, onOutcome: this.onOutcome(log),
        reportFault: (err: any, invoiceId: string) => log.error({ err: { name: err?.name, message: err?.message, stack: err?.stack }, invoiceId }, 'emission failed after numbering'),
      };
    },
    eventDeps(this: EmissionSelf, ctx: Ctx<any>) {
      return { store: this.store, calls: ctx, events: this.fiscalEvents };
    },
    inutilizacaoDeps(this: EmissionSelf, ctx: Ctx<any>) {
      return { calls: ctx, inutilizacoes: this.inutilizacoes };
    },
    async ownBatch(this: EmissionSelf, ctx: Ctx<any>, id: string) {
      const batch = isIdShaped(id) ? await this.batches.batch(id) : undefined;
      if (!batch || batch.partnerId !== partnerOf(ctx).partnerId) throw new DomainError('NOT_FOUND', undefined, 'Lote não encontrado.');
      return batch;
    },
    /** The view of the batch a key is bound to (422 for another body under it), or undefined. */
    async boundBatch(this: EmissionSelf, partnerId: string, key: string, fingerprint: string) {
      const bound = await this.batches.findByIdempotencyKey(partnerId, key);
      if (!bound) return undefined;
      checkSameRequest(bound, fingerprint, key);
      return batchView(bound.batch, await this.batches.items(bound.batch.id));
    },
    async enqueueItem(this: EmissionSelf, itemId: string) {
      // The queue state is committed already; a lost message is re-sent by the sweeper.
      await this.broker.sendToChannel(BATCH_CHANNEL, { itemId }, { xaddMaxLen: BATCH_STREAM_MAX_LEN }).catch((err: Error) => this.logger.warn({ err: err.message, itemId }, 'batch enqueue failed; sweeper will retry'));
    },
    async runItem(this: EmissionSelf, itemId: string) {
      const item = await this.batches.claim(itemId);
      if (!item) return;
      const batch = await this.batches.batch(item.batchId);
      // batch_id references batches: a claimed item always has its batch.
      if (!batch) throw new Error(`batch ${item.batchId} of item ${itemId} not found`);
      await processItem(this.deps(), this.batches, batch, item, { errorsBase: runtimeOf(this.broker).config.errorsBase });
    },
    async reconcileRound(this: EmissionSelf, limit: number) {
      const claimed = await this.store.claimDue(limit);
      const outcomes = [];
      for (const doc of claimed) {
        try {
          const after = await reconcileOne(this.deps(), doc);
          outcomes.push({ id: doc.id, status: after.status });
        } catch (err) {
          this.logger.warn({ err: (err as Error).message, id: doc.id }, 'reconciliation step failed; next slot is scheduled');
          outcomes.push({ id: doc.id, status: doc.status });
        }
      }
      return { claimed: claimed.length, outcomes };
    },
    async contingencyRound(this: EmissionSelf, limit: number) {
      return contingencyRound({ ...this.deps(), contingency: this.contingency }, limit, (err: Error, id: string) => this.logger.warn({ err: err.message, id }, 'contingency transmission failed; next try is scheduled'));
    },
    /**
     * One recovery at a time on this node: the sefaz node and the monitor may both announce the same
     * authority, and a second pass over notes the first is still sending would only consult them twice.
     */
    recoverFailed(this: EmissionSelf, authority: AuthorityRef) {
      const run = (this.recovering ?? Promise.resolve()).catch(() => undefined).then(() => this.recoverFailedNow(authority));
      this.recovering = run;
      return run;
    },
    async recoverFailedNow(this: EmissionSelf, authority: AuthorityRef) {
      const outcomes = await retransmitFailed(this.deps(), this.storeDeps, { uf: authority.uf, ambiente: authority.ambiente, ...(authority.model ? { model: authority.model } : {}) },
        (err: Error, id: string) => this.logger.warn({ err: err.message, id }, 'retransmission after recovery failed; next slot is scheduled'));
      if (outcomes.length) this.logger.info({ ...authority, notes: outcomes.length }, 'notes that failed before sending retransmitted after recovery');
      return outcomes;
    },
    async sweepRound(this: EmissionSelf) {
      const ids: string[] = await this.batches.stale(200);
      for (const id of ids) await this.enqueueItem(id);
      return { requeued: ids.length };
    },
  },

  async started(this: Service) {
    const self = emissionService(this);
    const { config, clock } = runtimeOf(self.broker);
    self.store = new DocumentStore({ knex: self.knex, schema: SCHEMA, now: () => clock.now(), enqueueEvent: (trx, ev) => self.enqueueEvent(trx, ev), eventCte: (name, ev) => self.eventCte(name, ev), eventsCte: (name, events, keysIn) => self.eventsCte(name, events, keysIn) });
    self.contingency = new ContingencyStore({ knex: self.knex, schema: SCHEMA, now: () => clock.now(), enqueueEvent: (trx, ev) => self.enqueueEvent(trx, ev) });
    self.batches = new BatchStore(self.knex, SCHEMA, () => clock.now());
    const storeDeps: StoreDeps = { knex: self.knex, schema: SCHEMA, now: () => clock.now(), enqueueEvent: (trx, ev) => self.enqueueEvent(trx, ev) };
    self.storeDeps = storeDeps;
    self.fiscalEvents = new FiscalEventStore(storeDeps);
    self.inutilizacoes = new InutilizacaoStore(storeDeps);
    self.nfse = new NfseStore({ ...storeDeps, eventCte: (name, ev) => self.eventCte(name, ev), eventsCte: (name, events, keysIn) => self.eventsCte(name, events, keysIn) },
      { adherenceLeaseMs: config.cacheLeaseMs });
    self.nfseEvents = new NfseEventStore(storeDeps, self.nfse);
    const metrics = metricsOf(self.broker);
    self.stages = new StageTimer(undefined, stageObserver(metrics));
    self.printPool = new PrintPool({ threads: config.printThreads });
    self.draftPool = new DraftPool(config.drafts);
    self.onOutcome = outcomeReporter(metrics);
    self.onNfseOutcome = nfseOutcomeReporter(metrics);
    // One issuer's burst (NF-e, NFC-e and NFS-e alike: services/emission/numbering-slots.ts) waits for its own
    // numbering slots, holding no database connection (config.numbering). A new note or DPS that waited takes
    // those of its series waiting behind it into its transaction (issue 18); one transaction per series at a
    // time on this node (a second would only wait for the series' row lock), the other slots for its other series.
    self.numbering = new Bulkhead({
      concurrency: config.numbering.perIssuer, maxQueued: config.numbering.maxQueued, queueTimeoutMs: config.numbering.queueTimeoutMs,
      maxGroup: MAX_NUMBERING_GROUP, oneRunPerGroup: true,
    });
    // Before those slots, each document holds one of its issuer's in-flight places until the authority
    // answered it (services/emission/numbering-slots.ts inFlightPlace), waiting within the same bounds:
    // this node never numbers more of an issuer's documents than it has sent on or can send soon.
    self.inFlight = new Bulkhead({
      concurrency: config.numbering.inFlightPerIssuer, maxQueued: config.numbering.maxQueued, queueTimeoutMs: config.numbering.queueTimeoutMs,
    });
    // Tests drive rounds through the actions with a manual clock; every other mode runs them here.
    if (config.env !== 'test') {
      const every = (ms: number, fn: () => Promise<unknown>, what: string) => {
        const timer = setInterval(() => fn().catch((err: Error) => self.logger.warn({ err: err.message }, `${what} failed`)), ms);
        timer.unref?.();
        return timer;
      };
      // Startup recovery: documents a killed process left CREATED/TRANSMITTING are due already.
      const reconcileNfse = () => self.broker.call('v1.emission.reconcileNfseDue', { limit: 50 }, { nodeID: self.broker.nodeID });
      setImmediate(() => self.reconcileRound(50).catch((err: Error) => self.logger.warn({ err: err.message }, 'startup reconciliation failed')));
      setImmediate(() => reconcileNfse().catch((err: Error) => self.logger.warn({ err: err.message }, 'startup NFS-e reconciliation failed')));
      self.timers = [every(RECONCILE_EVERY_MS, () => self.reconcileRound(50), 'reconciliation'), every(RECONCILE_EVERY_MS, reconcileNfse, 'NFS-e reconciliation'), every(SWEEP_EVERY_MS, () => self.sweepRound(), 'batch sweep'),
        every(CONTINGENCY_EVERY_MS, () => self.contingencyRound(50), 'contingency round')];
    }
  },

  async stopped(this: Service) {
    for (const t of emissionService(this).timers ?? []) clearInterval(t);
    await emissionService(this).printPool?.destroy();
    await emissionService(this).draftPool?.destroy();
  },
};

const batchRequestId = () => `batch-${Date.now()}`;

export default EmissionService;
