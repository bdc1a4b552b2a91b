import type { NfseRecord } from '../../../lib/emission/nfse/document.js';
import { DomainError } from '../../../lib/errors/index.js';
import { bindingRefused, KeyAlreadyBound, type StoreDeps } from '../document-row.js';
import { firstDocumentCte, firstDocumentsCte } from '../partner-activity.js';
import { insertRowsStatement, insertStatement, type Cte, type DocumentTables } from '../transition-sql.js';
import { claimGroup, togetherOrEach, type Pending } from '../group-claim.js';
import { NumberForecast } from '../number-forecast.js';
import { committedStatement, statementsOf, supportsDirectTransactions, type DirectTx } from '../../shared/direct-transaction.js';
import { createdDps, toNfseRecord, type BuiltDps, type NewNfse } from './dps-row.js';

/** migrations/emission 061: one DPS per partner and Idempotency-Key. */
const IDEMPOTENCY_INDEX = 'nfse_documents_idempotency_unique';
/** nDPS is TSNumDPS: up to 15 digits. */
const MAX_NDPS = 999_999_999_999_999;
/** Locks a série's sequence row and advances it; the nDPS it held (as CLAIM_SQL of services/emission/numbering-store.ts). */
const CLAIM_SQL = 'update ?? set next_number = next_number + 1 where issuer_id = ? and serie = ? and environment = ? returning next_number - 1 as n_dps';
/** The same, advanced by a whole group: the first nDPS it holds. */
const CLAIM_GROUP_SQL = 'update ?? set next_number = next_number + ? where issuer_id = ? and serie = ? and environment = ? returning next_number - ? as first';

/** A DPS waiting for its nDPS: what it will be stored as, and how its draft is finished once numbered. */
export type PendingDps = Pending<NewNfse, BuiltDps>;

/** The numbering space of a new DPS, as the key its série's DPS are grouped by: never an NF-e's (numbering-store.ts numberingGroup). */
export function nfseNumberingGroup(doc: NewNfse): string {
  return `nfse/${doc.issuerId}/${doc.serie}/${doc.environment}`;
}

/**
 * A new DPS and its nDPS: the série's sequence row locked, advanced and the DPS inserted already
 * TRANSMITTING in one transaction, so nDPS stay consecutive without gaps whatever fails (issue 18
 * counts what runs under that lock). The same design as the NF-e numbering
 * (services/emission/numbering-store.ts), on the NFS-e tables; the NFS-e store hands its creations here.
 */
export class NfseNumbering {
  /** The next nDPS of the séries this node numbers in groups (number-forecast.ts). */
  private readonly forecast = new NumberForecast();

  constructor(private readonly d: StoreDeps, private readonly tables: DocumentTables) {}

  private t(name: string): string {
    return `${this.d.schema}.${name}`;
  }

  /**
   * Allocates the next nDPS of the space and stores the DPS built with it, already TRANSMITTING
   * (attempt 1 and its lease), in one transaction holding the sequence row lock: concurrent nodes
   * queue on the lock, and a build that throws rolls the number back, so nDPS stay consecutive
   * without gaps (emit.ts checks the XSD on a draft before the claim; under the lock the draft is
   * only numbered and signed: lib/nfse/document.ts finishDps). The request's Idempotency-Key is
   * bound in the same insert: a key another request bound first is refused (KeyAlreadyBound) and
   * the number goes back with the rollback.
   */
  async createNumbered(doc: NewNfse, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    try {
      return await this.numbered(doc, build);
    } catch (err) {
      if (bindingRefused(err, IDEMPOTENCY_INDEX)) throw new KeyAlreadyBound(doc.idempotencyKey!);
      throw err;
    }
  }

  /**
   * New DPS of one série (`nfseNumberingGroup`) that queued together for the issuer's numbering
   * slot (services/shared/bulkhead.ts runGrouped), numbered as createNumbered numbers each, with
   * one settled result per DPS in order. On Postgres they are numbered in one transaction
   * (group-claim.ts, a group of one included, so the série's forecast follows every claim); on
   * PGlite, or when the group rolled back (the série's first DPS, a key bound meanwhile, a DPS
   * whose finishing throws…), each is numbered on its own, which answers that case for its own DPS.
   */
  async createNumberedGroup(pending: readonly PendingDps[]): Promise<Array<PromiseSettledResult<NfseRecord>>> {
    const group = pending[0] && nfseNumberingGroup(pending[0].doc);
    if (pending.some((p) => nfseNumberingGroup(p.doc) !== group)) throw new Error('createNumberedGroup: DPS of different séries');
    const together = supportsDirectTransactions(this.d.knex) ? () => this.numberGroup(pending) : undefined;
    return togetherOrEach(pending, together, (p) => this.createNumbered(p.doc, p.build));
  }

  /** One claim of the group's nDPS and one statement storing its DPS with their history and the partners' flags. */
  private async numberGroup(pending: readonly PendingDps[]): Promise<NfseRecord[]> {
    const { issuerId, serie, environment } = pending[0]!.doc;
    const n = pending.length;
    const now = this.d.now();
    const created = await claimGroup(this.d.knex, pending, {
      series: nfseNumberingGroup(pending[0]!.doc),
      claim: { sql: CLAIM_GROUP_SQL, literals: [this.t('nfse_sequences'), n, issuerId, serie, environment, n] },
      maxNumber: MAX_NDPS,
      finish: async (p, nDps) => createdDps(now, p.doc, nDps, await p.build(nDps)),
      write: async (tx, rows) => {
        // No inutilização holds an nDPS: a number held by another DPS fails the unique index (RollBack).
        const statement = this.groupStatement(rows);
        await tx.commitWith(statement.sql, statement.bindings, { prepare: true });
      },
      claimForecast: async (first, rows) => {
        // Migration 076's claim_nfse_forecast: refused unless the série continues at `first`.
        const claim = { sql: 'select ??(?::uuid, ?::int, ?::smallint, ?::bigint, ?::int) as first', bindings: [this.t('claim_nfse_forecast'), issuerId, serie, environment, first, rows.length] };
        const statement = this.groupStatement(rows, claim);
        await committedStatement(this.d.knex, statement.sql, statement.bindings, { prepare: true });
      },
    }, this.forecast);
    return created.map((c) => toNfseRecord(c.row));
  }

  /** The group's DPS with their history rows and the partners' flags; with `claim`, their claim first. */
  private groupStatement(rows: readonly ReturnType<typeof createdDps>[], claim?: Cte): Cte {
    return insertRowsStatement(this.tables, rows, [firstDocumentsCte('first_documents', this.d.schema, rows.map((c) => c.row))], claim);
  }

  /**
   * Issue 18, as the NF-e numbering (services/emission/numbering-store.ts numbered): the sequence
   * row is locked from the claim to the commit and every DPS of the série queues on it, so what
   * runs in between is counted in round trips: the claim, the build, the insert with both history
   * rows, COMMIT. The general path, when a group (createNumberedGroup, BEGIN sent with the claim)
   * cannot: the série's first DPS (the row is created when missing), PGlite (one session), a DPS
   * whose group rolled back.
   */
  private async numbered(doc: NewNfse, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    const key = { issuer_id: doc.issuerId, serie: doc.serie, environment: doc.environment };
    const claim = [this.t('nfse_sequences'), key.issuer_id, key.serie, key.environment];
    return this.d.knex.transaction(async (trx) => {
      const tx = statementsOf(trx);
      const claimNext = async (): Promise<{ n_dps: string } | undefined> => (await tx.query(CLAIM_SQL, claim, { prepare: true })).rows[0];
      let claimed = await claimNext();
      if (!claimed) {
        // Concurrent first DPS of a série insert one row (nDPS starts at 1); the claim's row lock orders them.
        await trx(this.t('nfse_sequences')).insert({ ...key, next_number: 1 }).onConflict(['issuer_id', 'serie', 'environment']).ignore();
        claimed = await claimNext();
        if (!claimed) throw new Error(`nfse sequence ${JSON.stringify(key)} missing after its insert`);
      }
      return this.insertTransmitting(tx, doc, Number(claimed.n_dps), build);
    });
  }

  /**
   * Builds the DPS with the claimed nDPS and inserts it already TRANSMITTING (dps-row.ts
   * createdDps) with its history rows and the partner's first-document flag, in one statement.
   */
  private async insertTransmitting(tx: DirectTx, doc: NewNfse, nDps: number, build: (nDps: number) => Promise<BuiltDps>): Promise<NfseRecord> {
    if (nDps > MAX_NDPS) throw new DomainError('UNPROCESSABLE_ENTITY', { serie: doc.serie }, 'Numeração da série da DPS esgotada; use outra série.');
    const built = await build(nDps);
    const { row, entries } = createdDps(this.d.now(), doc, nDps, built);
    // The partner's first-document flag rides in the same statement (API.md, Resources > Partner:
    // a partner that emitted an NFS-e cannot be deactivated either), as the NF-e insert does.
    const statement = insertStatement(this.tables, row, entries, [firstDocumentCte('first_document', this.d.schema, row)]);
    await tx.query(statement.sql, statement.bindings, { prepare: true });
    // Built from what was written: no re-read while the sequence row is locked.
    return toNfseRecord(row);
  }
}
