import type { Context, Service, ServiceSchema } from 'moleculer';
import type { Knex } from 'knex';
import { DbMixin, type DbMethods } from './mixins/db.mixin.js';
import { ALL_SUBSCRIBERS, OutboxMixin, type OutboxMethods } from './mixins/outbox.mixin.js';
import { migrations } from '../migrations/monitor/index.js';
import { runtimeOf } from './shared/runtime.js';
import { UFS } from '../lib/issuer/schema.js';
import { AMBIENTE_CODES, AMBIENTE_NAMES, decideAvailability, isConfirmedDown, type AmbienteName, type ConfirmedState, type StatusChangedData } from '../lib/contingency/availability.js';
import { authorityStatusJson, statusQuerySchema } from '../lib/contingency/schemas.js';
import type { StatusResult } from '../lib/sefaz/results.js';
import { StatusStore, type AuthorityStatusView, type Claim, type RecordOutcome } from './contingency-monitor/status-store.js';
import { mapLimit } from './shared/map-limit.js';
import { AUTHORITY_EVENTS, type AuthorityRecoveredPayload } from './shared/authority-events.js';
import { SERVICE_DOWN, SERVICE_UP } from '../lib/sefaz/cstat.js';

const SCHEMA = 'monitor';
/** Rows one claim takes: every UF of one ambiente, so a tick needs one or two claims. */
const CLAIM_BATCH = 30;
const tags = ['sefaz'];
const UF = { type: 'enum', values: [...UFS] } as const;
const AMBIENTE = { type: 'enum', values: ['producao', 'homologacao'] } as const;

/** One status call's outcome, as pollDue/checkNow report it. */
interface Checked {
  uf: string;
  ambiente: AmbienteName;
  outcome: RecordOutcome;
}

/** A 107/108/109 another call read (AUTHORITY_EVENTS.observed). */
interface Observation { uf: string; ambiente: 1 | 2; cStat: number; xMotivo: string; observedAt: string }

/** What the handlers below see as `this`: the service, its mixins' methods and its own. */
type Monitor = Service & DbMethods & OutboxMethods & {
  _store?: StatusStore;
  monitorTimer?: NodeJS.Timeout;
  ticking?: boolean;
  store(): StatusStore;
  ambientes(): AmbienteName[];
  runChecks(force?: { uf?: string; ambiente?: AmbienteName }): Promise<Checked[]>;
  checkOne(claim: Claim): Promise<Checked>;
  observe(o: Observation): Promise<string>;
  announceRecovered(uf: string, ambiente: AmbienteName): void;
  tick(): void;
};
/** Moleculer types `this` of event handlers and lifecycle hooks as the bare Service: this is ours. */
const monitor = (service: Service) => service as Monitor;

/**
 * contingency-monitor: the authority availability monitor (API.md, Events > `sefaz.status.changed`;
 * Limits: 27 UFs every 5 minutes). Every node's timer claims the due (UF, ambiente) rows in Postgres
 * (SKIP LOCKED, one interval ahead), asks v1.sefaz.status with the platform's own monitoring
 * certificate, and records the answer through lib/contingency/availability.ts: a confirmed up ↔
 * down transition is committed with its `sefaz.status.changed` outbox event (platform-wide, fanned
 * out by the webhook dispatcher to opted-in partners); our own failures are recorded and never flip
 * the state. `statusOf` is the input of the automatic NFC-e contingency decision.
 *
 * Besides its schedule (issue 20, defect 3): a sefaz node whose circuit for a UF opens makes it
 * check that UF at once (its status call is the probe and bypasses the breaker), and a 107/108/109
 * any other call read is recorded as the authority's word. A confirmed return to `up` is broadcast
 * so notes that failed before sending are retransmitted now.
 */
const ContingencyMonitor: ServiceSchema = {
  name: 'contingency-monitor',
  version: 1,
  settings: { rest: '/' },
  mixins: [DbMixin({ schema: SCHEMA, migrations }), OutboxMixin({ schema: SCHEMA })],

  actions: {
    listStatus: {
      rest: 'GET /sefaz/status',
      auth: 'any',
      params: statusQuerySchema,
      openapi: {
        summary: 'Disponibilidade das autorizadoras por UF e ambiente',
        description: 'Último estado confirmado pela própria autorizadora (NfeStatusServico4, consultado pela plataforma com certificado próprio a cada 5 minutos nas 27 UFs): up (cStat 107) ou down (108/109), com cStat e xMotivo literais. Falhas próprias do monitor nunca aparecem como down. status null: ainda sem confirmação. Transições são publicadas no evento sefaz.status.changed (opt-in em events[]).',
        tags, query: ['uf', 'ambiente'], response: { type: 'array', items: authorityStatusJson },
      },
      async handler(this: Monitor, ctx: Context<{ uf?: string; ambiente?: AmbienteName }>) {
        const rows: AuthorityStatusView[] = await this.store().list({ ambientes: this.ambientes(), ...ctx.params });
        return rows.map(({ uf, ambiente, status, cStat, xMotivo, checkedAt, changedAt }) => ({ uf, ambiente, status, cStat, xMotivo, checkedAt, changedAt }));
      },
    },

    /**
     * Internal: the monitor's view of one UF for the NFC-e contingency decision. `confirmedDown`
     * is true only when the authority itself said it is stopped; lastFailure is informative.
     */
    statusOf: {
      visibility: 'public',
      params: { $$strict: true, uf: UF, ambiente: AMBIENTE },
      async handler(this: Monitor, ctx: Context<{ uf: string; ambiente: AmbienteName }>) {
        const view: AuthorityStatusView | null = await this.store().get(ctx.params.uf, ctx.params.ambiente);
        const confirmed = view?.status ? { status: view.status, cStat: view.cStat!, xMotivo: view.xMotivo!, checkedAt: view.checkedAt! } : null;
        return { uf: ctx.params.uf, ambiente: ctx.params.ambiente, monitored: !!view, ...(view ?? {}), confirmedDown: isConfirmedDown(confirmed) };
      },
    },

    /** Operators and tests: checks the matching rows now (not those another node is checking). */
    checkNow: {
      visibility: 'public',
      params: { $$strict: true, uf: { ...UF, optional: true }, ambiente: { ...AMBIENTE, optional: true } },
      async handler(this: Monitor, ctx: Context<{ uf?: string; ambiente?: AmbienteName }>) {
        return { checked: await this.runChecks({ uf: ctx.params.uf, ambiente: ctx.params.ambiente }) };
      },
    },

    /** Checks every due row now (the timer does the same on each node). */
    pollDue: {
      visibility: 'public',
      async handler(this: Monitor) {
        return { checked: await this.runChecks() };
      },
    },
  },

  events: {
    [AUTHORITY_EVENTS.circuitOpened]: {
      async handler(this: Service, ctx: Context<{ uf: string; ambiente: 1 | 2 }>): Promise<void> {
        const self = monitor(this);
        const ambiente = AMBIENTE_NAMES[ctx.params.ambiente];
        if (!ambiente || !self.ambientes().includes(ambiente) || !(UFS as readonly string[]).includes(ctx.params.uf)) return;
        await self.runChecks({ uf: ctx.params.uf, ambiente })
          .catch((err: Error) => self.logger.warn({ err: err.message, uf: ctx.params.uf, ambiente }, 'check after an opened circuit failed; the schedule goes on'));
      },
    },
    // Another node recorded a transition: the view this node keeps of that row is old (StatusStore.get).
    [AUTHORITY_EVENTS.statusChanged]: {
      handler(this: Service, ctx: Context<{ uf: string; ambiente: AmbienteName }>): void {
        monitor(this).store().forget(ctx.params.uf, ctx.params.ambiente);
      },
    },
    [AUTHORITY_EVENTS.observed]: {
      async handler(this: Service, ctx: Context<Observation>): Promise<void> {
        const self = monitor(this);
        await self.observe(ctx.params)
          .catch((err: Error) => self.logger.warn({ err: err.message, uf: ctx.params.uf }, 'authority evidence not recorded'));
      },
    },
  },

  methods: {
    store(this: Monitor): StatusStore {
      return (this._store ??= new StatusStore(this.knex, SCHEMA, { leaseMs: runtimeOf(this.broker).config.cacheLeaseMs }));
    },
    ambientes(this: Monitor): AmbienteName[] {
      return runtimeOf(this.broker).config.monitor.ambientes.map((a) => AMBIENTE_NAMES[a]);
    },

    /** Claims (due, or forced) rows in batches and checks them with bounded concurrency. */
    async runChecks(this: Monitor, force?: { uf?: string; ambiente?: AmbienteName }): Promise<Checked[]> {
      const { config, clock } = runtimeOf(this.broker);
      const m = config.monitor;
      const s = config.sefaz;
      // Long enough for the status call with its retries; a lost lease only drops that result.
      const leaseMs = (s.connectTimeoutMs + s.readTimeoutMs + s.retryDelayMs * 4) * (s.consultRetries + 1) + 60_000;
      const out: Checked[] = [];
      for (let round = 0; round < 10; round++) {
        const claims: Claim[] = await this.store().claim({
          now: clock.now(), intervalMs: m.intervalMs, leaseMs, nodeId: this.broker.nodeID, limit: CLAIM_BATCH, ambientes: this.ambientes(), force,
        });
        if (!claims.length) break;
        out.push(...await mapLimit(claims, m.concurrency, (c): Promise<Checked> => this.checkOne(c)));
        if (force) break;
      }
      return out;
    },

    /** One status call outside any transaction, then its record. Never throws for the authority. */
    async checkOne(this: Monitor, claim: Claim): Promise<Checked> {
      const { config, clock } = runtimeOf(this.broker);
      let result: StatusResult;
      try {
        result = await this.broker.call('v1.sefaz.status', { uf: claim.uf, model: config.monitor.model, ambiente: AMBIENTE_CODES[claim.ambiente], monitor: true });
      } catch (err) {
        // sefaz unreachable or our bug: still our own failure, never `down`.
        result = { kind: 'failed', reason: 'connect', detail: `v1.sefaz.status: ${(err as Error).message}` };
      }
      const now = clock.now();
      const outcome: RecordOutcome = await this.store().record(
        claim, now,
        (previous: ConfirmedState | null) => decideAvailability({ uf: claim.uf, ambiente: claim.ambiente, previous, result, now }),
        (trx: Knex.Transaction, data: StatusChangedData) => this.enqueueEvent(trx, { type: 'sefaz.status.changed', partnerId: ALL_SUBSCRIBERS, data }),
      );
      if (outcome === 'transition') {
        this.logger.warn({ uf: claim.uf, ambiente: claim.ambiente, kind: result.kind, cStat: (result as any).cStat }, 'authority status changed');
        void this.broker.broadcast(AUTHORITY_EVENTS.statusChanged, { uf: claim.uf, ambiente: claim.ambiente });
        if (result.kind === 'up') this.announceRecovered(claim.uf, claim.ambiente);
      }
      else if (outcome === 'own-failure') this.logger.info({ uf: claim.uf, ambiente: claim.ambiente, reason: (result as any).reason ?? 'authority-refused-monitor' }, 'authority status check failed on our side; state kept');
      return { uf: claim.uf, ambiente: claim.ambiente, outcome };
    },

    /** A 107/108/109 another call read (AUTHORITY_EVENTS.observed): recorded like the monitor's own answer. */
    async observe(this: Monitor, o: Observation): Promise<string> {
      const ambiente = AMBIENTE_NAMES[o.ambiente];
      if (!ambiente || !this.ambientes().includes(ambiente)) return 'unmonitored';
      const now = runtimeOf(this.broker).clock.now();
      const kind = o.cStat === SERVICE_UP ? 'up' : SERVICE_DOWN.has(o.cStat) ? 'down' : 'refused';
      const result: StatusResult = { kind, cStat: o.cStat, xMotivo: o.xMotivo, checkedAt: o.observedAt };
      const outcome = await this.store().observe(
        o.uf, ambiente, now,
        (previous: ConfirmedState | null) => decideAvailability({ uf: o.uf, ambiente, previous, result, now }),
        (trx: Knex.Transaction, data: StatusChangedData) => this.enqueueEvent(trx, { type: 'sefaz.status.changed', partnerId: ALL_SUBSCRIBERS, data }),
      );
      if (outcome === 'transition') {
        this.logger.warn({ uf: o.uf, ambiente, cStat: o.cStat }, 'authority status changed (seen by another call)');
        void this.broker.broadcast(AUTHORITY_EVENTS.statusChanged, { uf: o.uf, ambiente });
        if (result.kind === 'up') this.announceRecovered(o.uf, ambiente);
      }
      return outcome;
    },

    announceRecovered(this: Monitor, uf: string, ambiente: AmbienteName) {
      const payload: AuthorityRecoveredPayload = { uf, ambiente: AMBIENTE_CODES[ambiente] };
      void this.broker.broadcast(AUTHORITY_EVENTS.recovered, payload);
    },

    tick(this: Monitor) {
      if (this.ticking) return;
      this.ticking = true;
      this.runChecks()
        .catch((err: Error) => this.logger.warn({ err: err.message }, 'availability poll failed; next tick retries'))
        .finally(() => { this.ticking = false; });
    },
  },

  async started(this: Service) {
    const self = monitor(this);
    const { config, clock } = runtimeOf(self.broker);
    await self.store().seed(UFS.flatMap((uf) => self.ambientes().map((ambiente: AmbienteName) => ({ uf, ambiente }))), clock.now());
    if (config.monitor.enabled) {
      self.monitorTimer = setInterval(() => self.tick(), Math.min(config.monitor.tickMs, config.monitor.intervalMs));
      self.monitorTimer.unref?.();
    }
  },

  stopped(this: Service) {
    clearInterval(monitor(this).monitorTimer);
  },
};

export default ContingencyMonitor;
