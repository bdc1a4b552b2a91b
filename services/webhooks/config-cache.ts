import type { Context, Service, ServiceSchema } from 'moleculer';
import { ClusterCache } from '../shared/cluster-cache.js';
import { runtimeOf } from '../shared/runtime.js';
import type { ConfigStore, WebhookConfigRow } from './config-store.js';

/** The drop action of this cache, as every dispatcher node answers it. */
export const CONFIG_DROP_ACTION = 'v1.webhook-dispatcher.dropCachedConfigs';
/** Partners kept per node (a config is a few hundred bytes). */
const MAX_CACHED_CONFIGS = 20_000;

/** What accepting events reads of the configurations (services/webhooks/accept.ts). */
export type ConfigReader = Pick<ConfigStore, 'get' | 'getMany' | 'withWebhook'>;

/**
 * The configurations as accepting events reads them (issue 18: a read per relayed batch), from
 * this node's cache, kept exact by services/shared/cluster-cache.ts: every configuration write
 * awaits the cache's `invalidate` after it committed and before it answers. A partner without a
 * configuration is remembered too (null): most partners have no webhook, and theirs are the
 * events read most. The fan-out of platform-wide events pages through the table, uncached.
 */
export class CachedConfigs implements ConfigReader {
  constructor(private readonly store: ConfigStore, private readonly cache: ClusterCache<WebhookConfigRow | null>) {}

  async get(partnerId: string): Promise<WebhookConfigRow | null> {
    return (await this.cache.get(partnerId, async () => freeze(await this.store.get(partnerId)))) ?? null;
  }

  async getMany(partnerIds: readonly string[]): Promise<Map<string, WebhookConfigRow>> {
    const all = await this.cache.getMany(partnerIds, async (missing) => {
      const found = await this.store.getMany(missing);
      return new Map(missing.map((id) => [id, freeze(found.get(id) ?? null)]));
    });
    const configured = new Map<string, WebhookConfigRow>();
    for (const [id, config] of all) if (config) configured.set(id, config);
    return configured;
  }

  withWebhook(afterPartnerId: string | null, limit: number): Promise<WebhookConfigRow[]> {
    return this.store.withWebhook(afterPartnerId, limit);
  }
}

/** What the mixin adds to the dispatcher; `configs()` is the dispatcher's own store. */
export interface ConfigCacheMethods {
  _configCache?: ClusterCache<WebhookConfigRow | null>;
  _configReader?: CachedConfigs;
  configs(): ConfigStore;
  /** The configurations as accepting events reads them. */
  configReader(): CachedConfigs;
  /** After a write of these partners' configurations committed, before it answers. */
  configsChanged(partnerIds: string[]): Promise<void>;
}
type Self = Service & ConfigCacheMethods;

/** The cache's wiring into the dispatcher: its drop action, its life with the service. */
export const ConfigCacheMixin: Partial<ServiceSchema> = {
  actions: {
    /** Another node wrote these partners' configurations: this node forgets them. */
    dropCachedConfigs: {
      visibility: 'public',
      params: { keys: { type: 'array', items: 'string' } },
      handler(this: Self, ctx: Context<{ keys: string[] }>) {
        this._configCache!.drop(ctx.params.keys);
        return { dropped: true };
      },
    },
  },
  methods: {
    configReader(this: Self): CachedConfigs {
      return (this._configReader ??= new CachedConfigs(this.configs(), this._configCache!));
    },
    async configsChanged(this: Self, partnerIds: string[]): Promise<void> {
      await this._configCache!.invalidate(partnerIds);
    },
  },
  created(this: Service) {
    const self = this as Self;
    self._configCache = new ClusterCache<WebhookConfigRow | null>(self.broker, {
      dropAction: CONFIG_DROP_ACTION, leaseMs: runtimeOf(self.broker).config.cacheLeaseMs, maxEntries: MAX_CACHED_CONFIGS, logger: self.logger,
    });
  },
  stopped(this: Service) {
    (this as Self)._configCache?.close();
  },
};

/** Shared by every caller until it expires: frozen, so no caller can change it for the others. */
function freeze(row: WebhookConfigRow | null): WebhookConfigRow | null {
  if (row) {
    Object.freeze(row.events);
    Object.freeze(row);
  }
  return row;
}
