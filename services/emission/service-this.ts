import type { Context, LoggerInstance, Service } from 'moleculer';
import type { CallerMeta } from '../shared/caller.js';
import type { DbMethods } from '../mixins/db.mixin.js';
import type { OutboxMethods } from '../mixins/outbox.mixin.js';
import type { Bulkhead } from '../shared/bulkhead.js';
import type { BatchRow, BatchStore, batchView } from './batch.js';
import type { ContingencyRoundResult } from './contingency.js';
import type { ContingencyStore } from './contingency-store.js';
import type { EmissionDeps } from './deps.js';
import type { FiscalEventStore } from './event-store.js';
import type { InutilizacaoStore } from './inutilizacao-store.js';
import type { NfseEventStore } from './nfse/event-store.js';
import type { NfseStore } from './nfse/store.js';
import type { NfseOutcomeReporter, OutcomeReporter } from './outcome-report.js';
import type { AuthorityRef } from './recovery.js';
import type { DocumentStore } from './store.js';
import type { StoreDeps } from './document-row.js';
import type { StageTimer } from './stage-timer.js';
import type { DraftPool } from './draft-pool.js';
import type { PrintPool } from './print-pool.js';

/** A REST action's context: the caller, and the raw-response fields a handler may set. */
export type Ctx<P = Record<string, unknown>> = Context<P, CallerMeta & { $responseType?: string; $responseHeaders?: Record<string, string> }>;

/**
 * The emission service as its actions (services/emission.service.ts, document-actions.ts,
 * event-actions.ts, nfse/actions.ts) see it: DbMixin's knex and t(), the outbox, the stores
 * built in `started` and its methods.
 */
export type EmissionSelf = Service & DbMethods & OutboxMethods & {
  store: DocumentStore;
  contingency: ContingencyStore;
  batches: BatchStore;
  storeDeps: StoreDeps;
  fiscalEvents: FiscalEventStore;
  inutilizacoes: InutilizacaoStore;
  nfse: NfseStore;
  nfseEvents: NfseEventStore;
  stages: StageTimer;
  /** PDFs drawn off the event loop, partners in turn. */
  printPool: PrintPool;
  /** Large notes' drafts (build + XSD) off the event loop, issuers in turn. */
  draftPool: DraftPool;
  /** The outcome line and counter, for the logger of the request (or timer) the note's work runs for. */
  onOutcome: (logger: LoggerInstance) => OutcomeReporter;
  onNfseOutcome: (logger: LoggerInstance) => NfseOutcomeReporter;
  numbering: Bulkhead;
  /** Documents of one issuer numbered and not yet answered (numbering-slots.ts inFlightPlace). */
  inFlight: Bulkhead;
  recovering?: Promise<unknown>;
  timers?: NodeJS.Timeout[];
  deps(ctx?: Ctx<any>): EmissionDeps;
  eventDeps(ctx: Ctx<any>): Pick<EmissionDeps, 'store' | 'calls'> & { events: FiscalEventStore };
  inutilizacaoDeps(ctx: Ctx<any>): Pick<EmissionDeps, 'calls'> & { inutilizacoes: InutilizacaoStore };
  ownBatch(ctx: Ctx<any>, id: string): Promise<BatchRow>;
  boundBatch(partnerId: string, key: string, fingerprint: string | null): Promise<ReturnType<typeof batchView> | undefined>;
  enqueueItem(itemId: string): Promise<void>;
  runItem(itemId: string): Promise<void>;
  reconcileRound(limit: number): Promise<{ claimed: number; outcomes: { id: string; status: string }[] }>;
  contingencyRound(limit: number): Promise<ContingencyRoundResult>;
  recoverFailed(authority: AuthorityRef): Promise<{ id: string; status: string }[]>;
  recoverFailedNow(authority: AuthorityRef): Promise<{ id: string; status: string }[]>;
  sweepRound(): Promise<{ requeued: number }>;
};

/** Moleculer types `this` of event handlers, channel handlers and lifecycle hooks as the bare Service: this is ours. */
export const emissionService = (service: Service) => service as EmissionSelf;
