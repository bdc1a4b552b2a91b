import type { Knex } from 'knex';
import { directTransaction, statementsOf, supportsDirectTransactions, type DirectTx } from '../../../shared/direct-transaction.js';

/** What the simulated Sefin Nacional has generated (schema `simulator`, migration 070_sefin). */
export interface NfseRow {
  chave_acesso: string;
  id_dps: string;
  tp_amb: number;
  cnpj_cpf: string;
  n_nfse: string;
  status: 'gerada' | 'cancelada';
  processed_at: Date;
  nfse_xml: string;
}

export interface EventRow {
  chave_acesso: string;
  tipo_evento: string;
  n_seq: number;
  processed_at: Date;
  evento_xml: string;
}

interface Reserved { existing_chave: string | null; n_nfse: string | null; n_dfse: string | null }

const NFSE_COLUMNS = ['chave_acesso', 'id_dps', 'tp_amb', 'cnpj_cpf', 'n_nfse', 'status', 'processed_at', 'nfse_xml'] as const satisfies readonly (keyof NfseRow)[];
/** `??` the table (schema-qualified, bound at the call): one fixed text, so it is prepared once per connection. */
const INSERT_NFSE = `insert into ?? (${NFSE_COLUMNS.join(', ')}) values (${NFSE_COLUMNS.map(() => '?').join(', ')})`;

export class SefinStore {
  constructor(private readonly knex: Knex, private readonly schema = 'simulator') {}

  private t(name: string): string {
    return `${this.schema}.${name}`;
  }

  /**
   * The NFS-e of a DPS, generated once: in one transaction holding an advisory lock on the DPS
   * (idDps + environment), the way Sefin serializes a DPS (two concurrent sends of the same DPS can
   * never both generate an NFS-e, even with several simulator nodes on one database), the E0014
   * look-up and the numbers in one call (migration 072) sent with BEGIN, then `build`'s row
   * inserted with its COMMIT in one message: two round trips on node-postgres
   * (services/shared/direct-transaction.ts, statement-then-commit.ts), knex's transaction on
   * PGlite. `build` runs inside the transaction and must not touch the database.
   */
  async generateNfse(idDps: string, tpAmb: number, cnpjCpf: string, build: (numbers: { nNFSe: number; nDFSe: number }) => NfseRow): Promise<{ duplicate: string } | { row: NfseRow }> {
    const reserve = `select existing_chave, n_nfse, n_dfse from ??(?, ?::smallint, ?)`;
    const args = [this.t('sefin_reserve_dps'), idDps, tpAmb, cnpjCpf] as const;
    const body = async (tx: DirectTx, rows: Reserved[]) => {
      const reserved = rows[0]!;
      if (reserved.existing_chave !== null) return { duplicate: reserved.existing_chave };
      const row = build({ nNFSe: Number(reserved.n_nfse), nDFSe: Number(reserved.n_dfse) });
      await tx.commitWith(INSERT_NFSE, [this.t('sefin_nfse'), ...NFSE_COLUMNS.map((c) => row[c])], { prepare: true });
      return { row };
    };
    if (supportsDirectTransactions(this.knex)) return directTransaction(this.knex, reserve, args, body);
    return this.knex.transaction(async (trx) => {
      const r = await trx.raw(reserve, [...args]);
      return body(statementsOf(trx), r.rows);
    });
  }

  serializedNfse<T>(chave: string, fn: (store: SefinStore) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`sefin-nfse:${chave}`]);
      return fn(new SefinStore(trx, this.schema));
    });
  }

  /** Any environment: a read by idDps does not say which one (the host does, in the real one). */
  byDpsAnyEnvironment(idDps: string): Promise<NfseRow | undefined> {
    return this.knex(this.t('sefin_nfse')).where({ id_dps: idDps }).orderBy('processed_at', 'desc').first();
  }

  byChave(chave: string): Promise<NfseRow | undefined> {
    return this.knex(this.t('sefin_nfse')).where({ chave_acesso: chave }).first();
  }

  async nextDfse(): Promise<number> {
    const r = await this.knex.raw(`select nextval('${this.schema}.sefin_ndfse_seq') as n`);
    return Number(r.rows[0].n);
  }

  async cancel(chave: string): Promise<void> {
    await this.knex(this.t('sefin_nfse')).where({ chave_acesso: chave }).update({ status: 'cancelada' });
  }

  event(chave: string, tipo: string, nSeq: number): Promise<EventRow | undefined> {
    return this.knex(this.t('sefin_events')).where({ chave_acesso: chave, tipo_evento: tipo, n_seq: nSeq }).first();
  }

  async insertEvent(row: EventRow): Promise<void> {
    await this.knex(this.t('sefin_events')).insert(row);
  }
}
