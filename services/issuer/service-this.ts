import type { Context, Service } from 'moleculer';
import type { DbMethods } from '../mixins/db.mixin.js';
import type { OutboxMethods } from '../mixins/outbox.mixin.js';
import type { CallerMeta } from '../shared/caller.js';
import type { IssuerRecord } from '../../lib/issuer/model.js';
import type { SigningMaterial } from '../../lib/issuer/types.js';
import type { Pkcs12Pool } from './pkcs12-pool.js';
import type { ClusterCache } from '../shared/cluster-cache.js';
import type { IssuerRow } from './records.js';

/**
 * The issuer service as its actions, methods and mixins (transfers, queries, certificate expiry,
 * logo, row cache) see it: DbMixin's knex and t(), the outbox, its methods and the state it keeps.
 */
export type IssuerSelf = Service & DbMethods & OutboxMethods & {
  pkcs12Pool?: Pkcs12Pool;
  issuerRows: ClusterCache<IssuerRow>;
  signingCache?: Map<string, { material: SigningMaterial; until: number }>;
  lookupSimulator?: Promise<{ url: string; close(): Promise<void> }>;
  expiryTimer?: NodeJS.Timeout;
  expiryFirstRun?: NodeJS.Timeout;
  pkcs12(): Pkcs12Pool;
  selectPartnerIssuer(partnerId: string, issuerId: string | undefined, requireId: boolean): Promise<{ issuer: IssuerRecord; fingerprint: string | null }>;
  issuerRowById(issuerId: string): Promise<IssuerRow | undefined>;
  issuersChanged(ids: string[]): Promise<void>;
  loadOwn(partnerId: string, id: string): Promise<IssuerRecord>;
  loadOperable(ctx: Context<any, CallerMeta>, id: string): Promise<IssuerRecord>;
  signingMaterialOf(issuerId: string): Promise<SigningMaterial>;
  certificateExpiryCheck(): Promise<{ checked: number; emitted: number }>;
  lookupBase(): Promise<string>;
  decideTransfer(ctx: Context<{ id: string }, CallerMeta>, status: 'APROVADA' | 'RECUSADA', motivo: string | null): Promise<Record<string, unknown>>;
  transferView(row: Record<string, any>, admin: boolean): Record<string, unknown>;
};

/** Moleculer types `this` of event handlers and lifecycle hooks as the bare Service: this is ours. */
export const issuerService = (service: Service) => service as IssuerSelf;
