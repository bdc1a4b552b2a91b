import type { Knex } from 'knex';

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

export class SefinStore {
  constructor(private readonly knex: Knex, private readonly schema = 'simulator') {}

  private t(name: string): string {
    return `${this.schema}.${name}`;
  }

  /**
   * The NFS-e of a DPS, generated once: in one transaction holding an advisory lock on the DPS
   * (idDps + environment), the way Sefin serializes a DPS (two concurrent sends of the same DPS can
   * never both generate an NFS-e, even with several simulator nodes on one database), the E0014
   * look-up and the numbers in one call (migration 072), then `build`'s row inserted. `build` runs
   * inside the transaction and must not touch the database.
   */
  generateNfse(idDps: string, tpAmb: number, cnpjCpf: string, build: (numbers: { nNFSe: number; nDFSe: number }) => NfseRow): Promise<{ duplicate: string } | { row: NfseRow }> {
    return this.knex.transaction(async (trx) => {
      const r = await trx.raw(`select * from ${this.t('sefin_reserve_dps')}(?, ?, ?::smallint, ?)`, [`sefin-dps:${idDps}:${tpAmb}`, idDps, tpAmb, cnpjCpf]);
      const reserved = r.rows[0] as { existing_chave: string | null; n_nfse: string | null; n_dfse: string | null };
      if (reserved.existing_chave !== null) return { duplicate: reserved.existing_chave };
      const row = build({ nNFSe: Number(reserved.n_nfse), nDFSe: Number(reserved.n_dfse) });
      await trx(this.t('sefin_nfse')).insert(row);
      return { row };
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
