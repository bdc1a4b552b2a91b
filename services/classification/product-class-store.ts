import type { Knex } from 'knex';
import { candidatesOf, type CorrelationIndex } from '../../lib/classification/correlation.js';
import { confirmClass, invalidateIfNotCandidate, recordMulticlassRefusal, recordSentClass } from '../../lib/classification/memory.js';
import type { PendingReason, ProductClass, ProductClassOrigin } from '../../lib/classification/types.js';

const toRecord = (r: any): ProductClass => ({
  codigo: r.codigo, ncm: r.ncm, cClassTrib: r.c_class_trib ?? null, origem: r.origem as ProductClassOrigin, motivo: (r.motivo ?? null) as PendingReason | null,
  cClassTribAnterior: r.c_class_trib_anterior ?? null, deslocouEm: r.deslocou_em ? new Date(r.deslocou_em).toISOString() : null,
});

const toRow = (issuerId: string, p: ProductClass, at: Date) => ({
  issuer_id: issuerId, codigo: p.codigo, ncm: p.ncm, c_class_trib: p.cClassTrib, origem: p.origem, motivo: p.motivo,
  c_class_trib_anterior: p.cClassTribAnterior, deslocou_em: p.deslocouEm, updated_at: at,
});

const PENDING = (q: Knex.QueryBuilder) => q.where('origem', 'pendente').orWhere('motivo', 'deslocou_confirmada');

/**
 * The product class memory (schema `classification`, table product_classes). Every change of one
 * item runs under a transaction-scoped advisory lock on (issuer, codigo): two emission nodes, a
 * confirmation and a table reload touching the same item queue instead of overwriting each other,
 * and a record that does not exist yet is created exactly once. The transitions themselves are
 * lib/classification/memory.ts.
 */
export class ProductClassStore {
  constructor(private readonly knex: Knex, private readonly schema: string) {}

  private t(name: 'product_classes' | 'product_class_events'): string {
    return `${this.schema}.${name}`;
  }

  private async lock(trx: Knex.Transaction, issuerId: string, codigo: string): Promise<void> {
    await trx.raw('select pg_advisory_xact_lock(hashtext(?), hashtext(?))', [issuerId, codigo]);
  }

  /** Reads, transforms and writes one item under its lock; `change` returns the record to store, or the same one. */
  private async change(trx: Knex.Transaction, issuerId: string, codigo: string, at: Date, change: (stored: ProductClass | undefined) => ProductClass): Promise<ProductClass> {
    await this.lock(trx, issuerId, codigo);
    const row = await trx(this.t('product_classes')).where({ issuer_id: issuerId, codigo }).first();
    const stored = row ? toRecord(row) : undefined;
    const next = change(stored);
    if (next === stored) return next;
    await trx(this.t('product_classes')).insert(toRow(issuerId, next, at)).onConflict(['issuer_id', 'codigo']).merge();
    return next;
  }

  async get(issuerId: string, codigos: readonly string[]): Promise<Map<string, ProductClass>> {
    if (!codigos.length) return new Map();
    const rows = await this.knex(this.t('product_classes')).where({ issuer_id: issuerId }).whereIn('codigo', [...new Set(codigos)]);
    return new Map(rows.map((r: any) => [r.codigo, toRecord(r)]));
  }

  /**
   * The classes an accepted note sent (memory rule 2/3/5), from the emission's outbox event.
   * Applied once per event id: a redelivered event finds its id and changes nothing.
   */
  async applyAcceptedNote(eventId: string, issuerId: string, sent: readonly { codigo: string; ncm: string; cClassTrib: string }[], at: Date): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      const inserted = await trx(this.t('product_class_events')).insert({ event_id: eventId, applied_at: at }).onConflict('event_id').ignore().returning('event_id');
      if (!inserted.length) return false;
      // Sorted: two notes touching the same items take the locks in the same order (no deadlock).
      for (const s of [...sent].sort((a, b) => a.codigo.localeCompare(b.codigo))) {
        await this.change(trx, issuerId, s.codigo, at, (stored) => recordSentClass(stored, s, at));
      }
      return true;
    });
  }

  async recordMulticlass(issuerId: string, items: readonly { codigo: string; ncm: string }[], at: Date): Promise<void> {
    if (!items.length) return;
    await this.knex.transaction(async (trx) => {
      for (const i of [...items].sort((a, b) => a.codigo.localeCompare(b.codigo))) {
        await this.change(trx, issuerId, i.codigo, at, (stored) => recordMulticlassRefusal(stored, i.codigo, i.ncm));
      }
    });
  }

  async confirm(issuerId: string, codigo: string, ncm: string, cClassTrib: string, byAccountant: boolean, at: Date): Promise<ProductClass> {
    return this.knex.transaction((trx) => this.change(trx, issuerId, codigo, at, () => confirmClass(codigo, ncm, cClassTrib, byAccountant)));
  }

  /** Pending items of an issuer, oldest change first. */
  async pending(issuerId: string, page: number, limit: number): Promise<{ total: number; items: (ProductClass & { atualizadoEm: string })[] }> {
    const base = () => this.knex(this.t('product_classes')).where({ issuer_id: issuerId }).andWhere(PENDING);
    const [{ count }] = await base().count({ count: '*' });
    const rows = await base().orderBy([{ column: 'updated_at' }, { column: 'codigo' }]).offset((page - 1) * limit).limit(limit);
    return { total: Number(count), items: rows.map((r: any) => ({ ...toRecord(r), atualizadoEm: new Date(r.updated_at).toISOString() })) };
  }

  /**
   * After a new table version (inside its loading transaction): every stored class that is no
   * longer a candidate of its NCM on `day` becomes `pendente` (`candidatas_alteradas`). Rows are
   * read in pages by key; candidates are computed once per NCM.
   */
  async invalidateAll(trx: Knex.Transaction, index: CorrelationIndex, day: string, at: Date): Promise<number> {
    const cache = new Map<string, Set<string>>();
    const candidates = (ncm: string) => {
      let set = cache.get(ncm);
      if (!set) { set = new Set(candidatesOf(index, ncm, day).classes.map((c) => c.cClassTrib)); cache.set(ncm, set); }
      return set;
    };
    let changed = 0;
    let after: [string, string] = ['', ''];
    for (;;) {
      const rows = await trx(this.t('product_classes')).whereNot('origem', 'pendente').whereNotNull('c_class_trib')
        .andWhereRaw('(issuer_id, codigo) > (?, ?)', after).orderBy([{ column: 'issuer_id' }, { column: 'codigo' }]).limit(500);
      if (!rows.length) return changed;
      for (const r of rows) {
        const stored = toRecord(r);
        if (invalidateIfNotCandidate(stored, candidates(stored.ncm)) === stored) continue;
        const next = await this.change(trx, r.issuer_id, r.codigo, at, (current) => (current ? invalidateIfNotCandidate(current, candidates(current.ncm)) : stored));
        if (next.origem === 'pendente') changed++;
      }
      const last = rows[rows.length - 1];
      after = [last.issuer_id, last.codigo];
    }
  }
}
