import type { Context, Service } from 'moleculer';
import type { DbMethods } from '../mixins/db.mixin.js';
import type { OutboxEvent } from '../mixins/outbox.mixin.js';
import type { CallerMeta } from '../shared/caller.js';
import type { LogThrottle } from '../shared/log-throttle.js';
import { DomainError } from '../../lib/errors/index.js';
import type { ConfigStore } from './config-store.js';
import type { ConfigCacheMethods } from './config-cache.js';
import type { DeliveryStore, ClaimedAttempt } from './delivery-store.js';
import type { AcceptDeps } from './accept.js';
import type { WebhookAgents } from './post-webhook.js';

export type Ctx<P = Record<string, never>> = Context<P, CallerMeta>;

/** What the webhook-dispatcher's handlers see as `this`: the service, its database, its stores, timers and methods. */
export type Dispatcher = Service & DbMethods & ConfigCacheMethods & {
  _configs?: ConfigStore;
  _deliveries?: DeliveryStore;
  _agents?: WebhookAgents;
  _acceptLog?: LogThrottle;
  timer?: NodeJS.Timeout;
  retentionTimer?: NodeJS.Timeout;
  stopMetrics?: () => void;
  ticking?: boolean;
  tickAgain?: boolean;
  /** Wakes a round waiting on attempts in flight, so newly due ones are claimed (tick). */
  wakeUp?: () => void;
  stopping?: boolean;
  round?: Promise<unknown>;
  purging?: Promise<unknown> | null;
  now(): Date;
  deliveries(): DeliveryStore;
  agents(): WebhookAgents;
  checkTarget(raw: string): Promise<void>;
  acceptDeps(): AcceptDeps;
  acceptEvent(event: OutboxEvent): Promise<number>;
  acceptBatch(events: OutboxEvent[]): Promise<number>;
  processDue(onlyId?: string): Promise<number>;
  sendAttempt(c: ClaimedAttempt): Promise<void>;
  awaitSettled(partnerId: string, id: string): ReturnType<DeliveryStore['get']>;
  nudge(): void;
  tick(): void;
  runRetention(): Promise<number>;
};
/** Moleculer types `this` of lifecycle hooks as the bare Service: this is ours. */
export const dispatcher = (service: Service) => service as Dispatcher;

/**
 * Partner of the caller; `writes` refuses ek_test_ keys (API.md, Events > Delivery 4). The gateway
 * refuses them first, from the action's `refuseTestKey` flag, before the body is validated; this
 * check keeps the rule for calls that do not come through the gateway.
 */
export function partnerOf(ctx: Ctx<any>, writes = false): string {
  const caller = ctx.meta.caller;
  if (writes && caller?.keyKind === 'test') throw new DomainError('AMBIENTE_DE_TESTE_SEM_ESCRITA_WEBHOOK');
  if (!caller?.partnerId) throw new DomainError('FORBIDDEN', undefined, 'Rota de parceiro: o usuário não pertence a um parceiro.');
  return caller.partnerId;
}

