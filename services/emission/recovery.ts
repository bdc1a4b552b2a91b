import type { DocumentRecord } from '../../lib/emission/document.js';
import { nextCheckAt } from '../../lib/emission/reconciliation.js';
import type { Model } from '../../lib/nfe/types.js';
import { mapLimit } from '../shared/map-limit.js';
import { COLUMNS, toRecord, type StoreDeps } from './document-row.js';
import { reconcileOne } from './transmit.js';
import type { EmissionDeps } from './deps.js';

/**
 * Notes that failed before sending (status ERROR: nothing reached the authority) are sent again as
 * soon as their authority answers again (issue 20, defect 6), instead of at their next
 * reconciliation slot (2 minutes or more). The trigger is AUTHORITY_EVENTS.recovered (a circuit
 * closed on a sefaz node, or the monitor saw the UF back up); the work is the reconciliation step
 * itself (consult by key, then the same stored XML under the same key on "not found"), on notes
 * claimed here exactly as the reconciliation claims them, so nodes share them and none is sent twice.
 */
export interface AuthorityRef {
  uf: string;
  ambiente: 1 | 2;
  model?: Model;
}

/** Notes claimed per round and rounds per recovery: enough for a long outage, bounded per event. */
const BATCH = 50;
const MAX_ROUNDS = 20;
/** Notes of one recovery in flight at once on this node. */
const CONCURRENCY = 4;

/** Claims ERROR notes of one authority (SKIP LOCKED), moving each to its next reconciliation slot like claimDue. */
export async function claimFailed(d: StoreDeps, authority: AuthorityRef, limit: number, exclude: readonly string[] = []): Promise<DocumentRecord[]> {
  const table = `${d.schema}.documents`;
  return d.knex.transaction(async (trx) => {
    const now = d.now();
    const q = trx(table).where({ status: 'ERROR', uf: authority.uf, environment: authority.ambiente }).whereNotNull('next_check_at');
    if (authority.model) q.where({ model: authority.model });
    if (exclude.length) q.whereNotIn('id', exclude);
    const rows = await q.orderBy('next_check_at').limit(limit).forUpdate().skipLocked().select('id', 'created_at', 'check_attempts');
    for (const r of rows) {
      const attempts = Number(r.check_attempts) + 1;
      await trx(table).where({ id: r.id }).update({ check_attempts: attempts, next_check_at: nextCheckAt(new Date(r.created_at), attempts, now) });
    }
    if (!rows.length) return [];
    return (await trx(table).select(trx.raw(COLUMNS)).whereIn('id', rows.map((r: { id: string }) => r.id))).map(toRecord);
  });
}

export async function retransmitFailed(
  deps: Pick<EmissionDeps, 'store' | 'calls' | 'stages' | 'now'>, storeDeps: StoreDeps, authority: AuthorityRef, log: (err: Error, id: string) => void,
): Promise<{ id: string; status: string }[]> {
  const outcomes: { id: string; status: string }[] = [];
  // A note that fails again meanwhile is left to its reconciliation slot: one try per recovery.
  const tried: string[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claimed = await claimFailed(storeDeps, authority, BATCH, tried);
    tried.push(...claimed.map((d) => d.id));
    if (!claimed.length) break;
    outcomes.push(...await mapLimit(claimed, CONCURRENCY, async (doc) => {
      try {
        return { id: doc.id, status: (await reconcileOne(deps, doc)).status };
      } catch (err) {
        log(err as Error, doc.id);
        return { id: doc.id, status: doc.status };
      }
    }));
    if (claimed.length < BATCH) break;
  }
  return outcomes;
}
