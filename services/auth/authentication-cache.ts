import type { LoggerInstance, ServiceBroker } from 'moleculer';
import { sha256Hex } from '../../lib/auth/secrets.js';
import { ClusterCache } from '../shared/cluster-cache.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import type { AuthenticateParams, Authentication } from './sessions.js';

/**
 * The drop action of this cache, as every auth node answers it. The name of the previous
 * version's action, with the same effect (drop every entry): during a rolling deploy each
 * version's writers reach the other's nodes and wait for them.
 */
export const AUTHENTICATION_DROP_ACTION = 'v1.auth.dropAuthenticationCache';
/** Credentials kept per node (the bound of the Moleculer cacher this replaces); an entry is a few hundred bytes. */
const MAX_CACHED_AUTHENTICATIONS = 10_000;

/** The entry of a request's credentials: a hash, so no credential is kept or logged as a key. */
export function authenticationKey(p: Pick<AuthenticateParams, 'authorization' | 'apiKey'>): string {
  return sha256Hex(JSON.stringify([p.authorization ?? null, p.apiKey ?? null]));
}

/**
 * Each auth node's cache of authentications (v1.auth.authenticate runs on every protected
 * request), kept exact by services/shared/cluster-cache.ts: every write that changes what
 * authentication answers (a session revoked: logout, password change or reset, refresh reuse; a
 * key replaced; a partner deactivated or its plan changed) awaits `credentialsChanged` after it
 * committed and before it answers, so a request after that answer meets the new state on every
 * node. A write names a partner, a user or a session while an entry is keyed by a credential, so
 * it drops every entry: writes are rare next to requests.
 *
 * An entry also ends with its credential (Authentication.validUntil, by the service clock), whatever
 * its lease. A refusal is not kept (the loader throws). Only the API routes' authentications are
 * kept: the 2FA enrollment routes' (purpose 'mfa') are rare, and their mfa_token is spent by a
 * login that drops nothing, so they are always asked.
 */
export class AuthenticationCache {
  readonly cluster: ClusterCache<Authentication>;
  private readonly clock: Clock;

  constructor(broker: ServiceBroker, opts: { leaseMs: number; logger: LoggerInstance; clock: Clock }) {
    this.clock = opts.clock;
    this.cluster = new ClusterCache<Authentication>(broker, {
      dropAction: AUTHENTICATION_DROP_ACTION, leaseMs: opts.leaseMs, maxEntries: MAX_CACHED_AUTHENTICATIONS, logger: opts.logger,
    });
  }

  /** Who `p` names: this node's entry while it serves, else `load()`'s answer (kept if it may be). */
  async authenticate(p: AuthenticateParams, load: () => Promise<Authentication>): Promise<Caller> {
    if (p.purpose !== 'api') return (await load()).caller;
    const kept = await this.cluster.get(authenticationKey(p), async () => frozen(await load()));
    // Past its credential's end the entry is not an answer: ask again (a refusal, normally).
    if (kept && (kept.validUntil === Number.POSITIVE_INFINITY || this.clock.now().getTime() < kept.validUntil)) return kept.caller;
    return (await load()).caller;
  }

  /** This node's part of `credentialsChanged` (the drop action's handler). */
  dropAll(): void {
    this.cluster.dropAll();
  }

  /** After a write that changes what authentication answers committed, before it answers. */
  credentialsChanged(): Promise<void> {
    return this.cluster.invalidateAll();
  }

  /** The service stopped. */
  close(): void {
    this.cluster.close();
  }
}

/** Shared by every request until it ends: frozen, so no caller can change it for the others. */
function frozen(a: Authentication): Authentication {
  Object.freeze(a.caller);
  return Object.freeze(a);
}
