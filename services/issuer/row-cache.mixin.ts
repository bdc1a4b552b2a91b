import type { Context, Service, ServiceSchema } from 'moleculer';
import { ClusterCache } from '../shared/cluster-cache.js';
import { runStatement } from '../shared/pg-statement.js';
import { runtimeOf } from '../shared/runtime.js';
import { PUBLIC_COLUMNS, type IssuerRow } from './records.js';
import { issuerService, type IssuerSelf } from './service-this.js';

/** The drop action of this cache, as every issuer node answers it. */
export const ISSUER_ROW_DROP_ACTION = 'v1.issuer.dropCachedIssuers';
/** Issuers kept per node: a few MB of rows; an emitting issuer is hit every few seconds at most. */
const MAX_CACHED_ISSUERS = 10_000;
const SELECTED_COLUMNS = PUBLIC_COLUMNS.map((c) => `"${c}"`).join(', ');

/**
 * Each issuer node's cache of issuer rows by id (issue 18: every note read its issuer's row), kept
 * exact by services/shared/cluster-cache.ts: every write of an issuer row calls `issuersChanged`
 * after it committed and before it answers, so a note emitted after that answer sees the new row
 * on every node. A row is cached whatever its partner and also once removed (the caller checks
 * both); an unknown id is not remembered. Needs DbMixin.
 */
export const IssuerRowCacheMixin: Partial<ServiceSchema> = {
  actions: {
    /** Another node wrote these issuers: this node forgets them. */
    dropCachedIssuers: {
      visibility: 'public',
      params: { keys: { type: 'array', items: 'string' } },
      handler(this: IssuerSelf, ctx: Context<{ keys: string[] }>) {
        this.issuerRows.drop(ctx.params.keys);
        return { dropped: true };
      },
    },
  },
  methods: {
    /** The row of this id (any partner, removed included), from this node's cache or one prepared select. */
    async issuerRowById(this: IssuerSelf, issuerId: string): Promise<IssuerRow | undefined> {
      return this.issuerRows.get(issuerId, async () => {
        const [row] = (await runStatement(this.knex, `select ${SELECTED_COLUMNS} from ?? where id = ?`, [this.t('issuers'), issuerId], { prepare: true })).rows as IssuerRow[];
        // Shared by every caller until it expires: frozen, so no caller can change it for the others.
        return row ? freezeRow(row) : undefined;
      });
    },

    /** After a write of these issuer rows committed, before it answers. */
    async issuersChanged(this: IssuerSelf, ids: string[]): Promise<void> {
      await this.issuerRows.invalidate(ids);
    },
  },
  created(this: Service) {
    const self = issuerService(this);
    self.issuerRows = new ClusterCache<IssuerRow>(self.broker, {
      dropAction: ISSUER_ROW_DROP_ACTION,
      leaseMs: runtimeOf(self.broker).config.cacheLeaseMs,
      maxEntries: MAX_CACHED_ISSUERS,
      logger: self.logger,
    });
  },
  stopped(this: Service) {
    issuerService(this).issuerRows?.close();
  },
};

/** Freezes the row and its JSON columns all the way down (Dates are left as they are). */
function freezeRow<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) freezeRow(v);
    Object.freeze(value);
  }
  return value;
}
