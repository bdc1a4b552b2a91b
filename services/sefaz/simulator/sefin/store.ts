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
   * Runs `fn` in one transaction holding an advisory lock on the DPS (idDps + environment), the
   * way Sefin serializes a DPS: two concurrent sends of the same DPS can never both generate an
   * NFS-e, even with several simulator nodes on one database.
   */
  serializedDps<T>(idDps: string, tpAmb: number, fn: (store: SefinStore) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`sefin-dps:${idDps}:${tpAmb}`]);
      return fn(new SefinStore(trx, this.schema));
    });
  }

  serializedNfse<T>(chave: string, fn: (store: SefinStore) => Promise<T>): Promise<T> {
    return this.knex.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`sefin-nfse:${chave}`]);
      return fn(new SefinStore(trx, this.schema));
    });
  }

  byDps(idDps: string, tpAmb: number): Promise<NfseRow | undefined> {
    return this.knex(this.t('sefin_nfse')).where({ id_dps: idDps, tp_amb: tpAmb }).first();
  }

  /** Any environment: a read by idDps does not say which one (the host does, in the real one). */
  byDpsAnyEnvironment(idDps: string): Promise<NfseRow | undefined> {
    return this.knex(this.t('sefin_nfse')).where({ id_dps: idDps }).orderBy('processed_at', 'desc').first();
  }

  byChave(chave: string): Promise<NfseRow | undefined> {
    return this.knex(this.t('sefin_nfse')).where({ chave_acesso: chave }).first();
  }

  /** Next nNFSe of the issuer in the environment (Sefin numbers by emitter, never reusing). */
  async nextNumber(cnpjCpf: string, tpAmb: number): Promise<number> {
    const r = await this.knex.raw(
      `insert into ${this.t('sefin_numbers')} (cnpj_cpf, tp_amb, last) values (?, ?, 1)
       on conflict (cnpj_cpf, tp_amb) do update set last = ${this.t('sefin_numbers')}.last + 1 returning last`,
      [cnpjCpf, tpAmb],
    );
    return Number(r.rows[0].last);
  }

  async nextDfse(): Promise<number> {
    const r = await this.knex.raw(`select nextval('${this.schema}.sefin_ndfse_seq') as n`);
    return Number(r.rows[0].n);
  }

  async insertNfse(row: NfseRow): Promise<void> {
    await this.knex(this.t('sefin_nfse')).insert(row);
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
