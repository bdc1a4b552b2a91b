import type { Knex } from 'knex';
import { indexTable, type CorrelationIndex } from '../../lib/classification/correlation.js';
import type { ClassTable } from '../../lib/classification/types.js';

/** A loaded version as the admin routes show it. */
export interface ClassTableSummary {
  versao: string;
  classes: number;
  anexos: number;
  carregadaEm: string;
  emUso: boolean;
}

const summaryOf = (r: any, current: string | undefined): ClassTableSummary => ({
  versao: r.versao, classes: r.classes, anexos: r.anexos, carregadaEm: new Date(r.loaded_at).toISOString(), emUso: r.versao === current,
});

/** Serialises loads of a version across nodes (pg_advisory_xact_lock key). */
const LOAD_LOCK = 'classification.class_table_versions';

/**
 * The versions of the assisted-taxation tables (schema `classification`). The newest load is the
 * version in use. Each node keeps the parsed index of the version in use and asks Postgres which
 * version that is on every lookup (one indexed row), so a load on any node is seen by all at once;
 * the cache only saves re-indexing the same immutable content.
 */
export class ClassTableStore {
  private cached: { key: string; index: CorrelationIndex } | null = null;

  constructor(private readonly knex: Knex, private readonly schema: string) {}

  private get table(): string {
    return `${this.schema}.class_table_versions`;
  }

  async current(): Promise<CorrelationIndex | null> {
    const head = await this.knex(this.table).select('versao', 'loaded_at').orderBy('loaded_at', 'desc').first();
    if (!head) return null;
    const key = `${head.versao}@${new Date(head.loaded_at).toISOString()}`;
    if (this.cached?.key === key) return this.cached.index;
    const row = await this.knex(this.table).where({ versao: head.versao }).first('content');
    const content = (typeof row.content === 'string' ? JSON.parse(row.content) : row.content) as ClassTable;
    this.cached = { key, index: indexTable(content) };
    return this.cached.index;
  }

  /**
   * Stores a version (a version already loaded is replaced) and makes it the one in use; `after`
   * runs in the same transaction (the memory's invalidation), so the new version and its effect
   * on stored classes commit together or not at all.
   */
  async load(table: ClassTable, loadedBy: string | null, now: Date, after: (trx: Knex.Transaction, index: CorrelationIndex) => Promise<number>): Promise<{ summary: ClassTableSummary; substituida: boolean; pendentes: number }> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [LOAD_LOCK]);
      const existed = await trx(this.table).where({ versao: table.versao }).first('versao');
      // The newest load is the one in use: never tie with (or fall behind) the previous one, even
      // under a frozen or skewed clock.
      const newest = await trx(this.table).max({ at: 'loaded_at' }).first();
      const floor = newest?.at ? new Date(newest.at).getTime() + 1 : 0;
      const loadedAt = new Date(Math.max(now.getTime(), floor));
      const row = { versao: table.versao, content: JSON.stringify(table), classes: table.classes.length, anexos: table.anexos.length, loaded_by: loadedBy, loaded_at: loadedAt };
      await trx(this.table).insert(row).onConflict('versao').merge();
      const pendentes = await after(trx, indexTable(table));
      return { summary: summaryOf(row, table.versao), substituida: existed !== undefined, pendentes };
    });
  }

  /** Loads `table` only when no version exists yet (the default shipped in data/classification). */
  async loadIfEmpty(table: () => ClassTable, now: Date): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [LOAD_LOCK]);
      if (await trx(this.table).first('versao')) return false;
      const t = table();
      await trx(this.table).insert({ versao: t.versao, content: JSON.stringify(t), classes: t.classes.length, anexos: t.anexos.length, loaded_by: 'default', loaded_at: now });
      return true;
    });
  }

  async summaries(): Promise<ClassTableSummary[]> {
    const rows = await this.knex(this.table).select('versao', 'classes', 'anexos', 'loaded_at').orderBy('loaded_at', 'desc');
    return rows.map((r: any) => summaryOf(r, rows[0]?.versao));
  }
}
