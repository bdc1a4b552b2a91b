import type { Knex } from 'knex';
import type { ApproximateTaxRate } from '../../lib/approximate-tax/rate.js';
import type { ParsedTable } from '../../lib/approximate-tax/ibpt-csv.js';

/** A loaded table version, as the admin routes show it: the table's identity, counts and import time. */
export type TableSummary = Pick<ParsedTable, 'uf' | 'versao' | 'fonte' | 'chave' | 'vigenciaInicio' | 'vigenciaFim'> & {
  linhas: number;
  ignoradas: number;
  importadoEm: string;
};

const INSERT_CHUNK = 1000;
const isoDay = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;

const summaryOf = (r: any): TableSummary => ({
  uf: r.uf, versao: r.versao, fonte: r.fonte, chave: r.chave, vigenciaInicio: r.vigencia_inicio, vigenciaFim: r.vigencia_fim,
  linhas: r.linhas, ignoradas: r.ignoradas, importadoEm: new Date(r.imported_at).toISOString(),
});

const rateOf = (r: any): ApproximateTaxRate => ({
  uf: r.uf, ncm: r.ncm, ex: r.ex, descricao: r.descricao,
  nacionalFederal: BigInt(r.nacional_federal), importadosFederal: BigInt(r.importados_federal), estadual: BigInt(r.estadual), municipal: BigInt(r.municipal),
  vigenciaInicio: r.vigencia_inicio, vigenciaFim: r.vigencia_fim, versao: r.versao, chave: r.chave, fonte: r.fonte,
});

/** The approximate-tax tables of the classification service (schema `classification`). */
export class ApproximateTaxStore {
  constructor(private readonly knex: Knex, private readonly schema: string) {}

  private table(name: 'approximate_tax_tables' | 'approximate_tax_rates'): string {
    return `${this.schema}.${name}`;
  }

  /**
   * Replaces one version of one UF, all or nothing. The summary row is upserted first: its row lock
   * makes a concurrent import of the same version wait, so two operators (or nodes) loading the same
   * file end with one copy, never a mix.
   */
  async replace(table: ParsedTable, importedBy: string | null, now: Date): Promise<{ summary: TableSummary; substituida: boolean }> {
    return this.knex.transaction(async (trx) => {
      const key = { uf: table.uf, versao: table.versao };
      const existed = await trx(this.table('approximate_tax_tables')).where(key).forUpdate().first();
      const summaryRow = {
        ...key, fonte: table.fonte.slice(0, 100), chave: table.chave.slice(0, 40), vigencia_inicio: table.vigenciaInicio, vigencia_fim: table.vigenciaFim,
        linhas: table.rates.length, ignoradas: table.ignoradas, imported_by: importedBy, imported_at: now,
      };
      await trx(this.table('approximate_tax_tables')).insert(summaryRow).onConflict(['uf', 'versao']).merge();
      await trx(this.table('approximate_tax_rates')).where(key).delete();
      for (let i = 0; i < table.rates.length; i += INSERT_CHUNK) {
        await trx(this.table('approximate_tax_rates')).insert(table.rates.slice(i, i + INSERT_CHUNK).map((r) => ({
          uf: r.uf, versao: r.versao, ncm: r.ncm, ex: r.ex, descricao: r.descricao,
          nacional_federal: Number(r.nacionalFederal), importados_federal: Number(r.importadosFederal), estadual: Number(r.estadual), municipal: Number(r.municipal),
          vigencia_inicio: r.vigenciaInicio, vigencia_fim: r.vigenciaFim, chave: r.chave.slice(0, 40), fonte: r.fonte.slice(0, 100), imported_at: now,
        })));
      }
      const saved = await this.summaries(trx, key);
      return { summary: saved[0]!, substituida: existed !== undefined };
    });
  }

  async summaries(q: Knex | Knex.Transaction = this.knex, where: { uf?: string; versao?: string } = {}): Promise<TableSummary[]> {
    const rows = await q(this.table('approximate_tax_tables'))
      .select('uf', 'versao', 'fonte', 'chave', 'linhas', 'ignoradas', 'imported_at',
        q.raw(`${isoDay('vigencia_inicio')} as vigencia_inicio`), q.raw(`${isoDay('vigencia_fim')} as vigencia_fim`))
      .where(where).orderBy([{ column: 'uf' }, { column: 'vigencia_inicio', order: 'desc' }]);
    return rows.map(summaryOf);
  }

  /**
   * Per NCM, the base line (no tariff exception) of the UF that is the newest to have started on or
   * before `day`; whether it is still in force is judged by lib/nfe/approximate-tax.ts, so a stale
   * table is reported as stale rather than as missing.
   */
  async linesFor(uf: string, day: string, ncms: readonly string[]): Promise<ApproximateTaxRate[]> {
    if (!ncms.length) return [];
    const rows = await this.knex(this.table('approximate_tax_rates'))
      .distinctOn('ncm')
      .select('uf', 'ncm', 'ex', 'descricao', 'nacional_federal', 'importados_federal', 'estadual', 'municipal', 'versao', 'chave', 'fonte',
        this.knex.raw(`${isoDay('vigencia_inicio')} as vigencia_inicio`), this.knex.raw(`${isoDay('vigencia_fim')} as vigencia_fim`))
      .where({ uf, ex: '' }).whereIn('ncm', [...new Set(ncms)]).where('vigencia_inicio', '<=', day)
      .orderBy([{ column: 'ncm' }, { column: 'vigencia_inicio', order: 'desc' }, { column: 'imported_at', order: 'desc' }]);
    return rows.map(rateOf);
  }
}
