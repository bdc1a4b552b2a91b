import type { Knex } from 'knex';
import { DomainError } from '../../lib/errors/index.js';

/**
 * Numbering belongs to the fiscal identity — CNPJ, model, series, environment — not to the issuer
 * row (issue 23, defect 3). The authority keeps every number a CNPJ used; an issuer removed and
 * registered again (a new row, a new id) used to restart at 1 and every note then got cStat 539
 * until the numbering passed the old numbers. Sequences stay per issuer row (documents, locks and
 * queries are per issuer), but a new row's sequence starts after everything the CNPJ's earlier
 * rows used: documents, their sequences and inutilização ranges (all but REJECTED ones).
 * `issuer_fiscal_identities` remembers which issuer rows carried which CNPJ (emission never reads
 * issuer's tables; the CNPJ comes with the issuer snapshot of each emission).
 */
export const IDENTITIES_TABLE = 'issuer_fiscal_identities';

export interface SequenceKey {
  issuer_id: string;
  model: string;
  series: number;
  environment: number;
}

/**
 * The first number the CNPJ's other issuer rows leave free in the space (1 when there is none).
 * Used as the seed of a new sequence and by migration 050 for sequences created before it.
 */
export function carriedOverSql(schema: string): string {
  const t = (name: string) => `"${schema}".${name}`;
  return `select greatest(1,
      (select max(d.number) + 1 from ${t('documents')} d join ${t(IDENTITIES_TABLE)} i on i.issuer_id = d.issuer_id
        where i.cnpj = :cnpj and d.issuer_id <> :issuer_id and d.model = :model and d.series = :series and d.environment = :environment),
      (select max(s.next_number) from ${t('number_sequences')} s join ${t(IDENTITIES_TABLE)} i on i.issuer_id = s.issuer_id
        where i.cnpj = :cnpj and s.issuer_id <> :issuer_id and s.model = :model and s.series = :series and s.environment = :environment),
      (select max(u.end_number) + 1 from ${t('inutilizacoes')} u join ${t(IDENTITIES_TABLE)} i on i.issuer_id = u.issuer_id
        where i.cnpj = :cnpj and u.issuer_id <> :issuer_id and u.model = :model and u.series = :series and u.environment = :environment and u.status <> 'REJECTED')
    ) as next`;
}

/**
 * Makes sure the space's sequence row exists, seeded from the fiscal identity's history when it
 * is new, and records that this issuer row carries `cnpj`. Concurrent first emissions both seed
 * the same value; the insert keeps one row and the caller's row lock orders them afterwards.
 */
export async function ensureSequence(trx: Knex.Transaction, schema: string, key: SequenceKey, cnpj: string): Promise<void> {
  await trx(`${schema}.${IDENTITIES_TABLE}`).insert({ issuer_id: key.issuer_id, cnpj }).onConflict(['issuer_id', 'cnpj']).ignore();
  if (await trx(`${schema}.number_sequences`).where(key).first('next_number')) return;
  const { rows } = await trx.raw(carriedOverSql(schema), { ...key, cnpj });
  await trx(`${schema}.number_sequences`).insert({ ...key, next_number: Number(rows[0].next) }).onConflict(['issuer_id', 'model', 'series', 'environment']).ignore();
}

/**
 * A passthrough `numero` another issuer row of the same CNPJ already used (in any state but
 * REJECTED: a rejected note never registered its number) is 409 NUMERO_JA_UTILIZADO, as if this
 * row had used it: the authority would answer 539.
 */
export async function checkNumberFreeForIdentity(trx: Knex.Transaction, schema: string, key: SequenceKey, cnpj: string, number: number): Promise<void> {
  const taken = await trx(`${schema}.documents as d`)
    .join(`${schema}.${IDENTITIES_TABLE} as i`, 'i.issuer_id', 'd.issuer_id')
    .where({ 'i.cnpj': cnpj, 'd.model': key.model, 'd.series': key.series, 'd.environment': key.environment, 'd.number': number })
    .whereNot('d.issuer_id', key.issuer_id).whereNot('d.status', 'REJECTED').first('d.id');
  if (taken) throw new DomainError('NUMERO_JA_UTILIZADO', { numero: number, serie: key.series });
}
