import type { Knex } from 'knex';

/** A key a document held before its current one, with what was signed and sent under it. */
export interface PreviousKey {
  accessKey: string;
  cnf: string;
  tpEmis: number;
  signedXml: string;
  digestValue: string | null;
  qrCode: string | null;
}

export type KeyRelease = 'contingency:rekey' | 'contingency:held-rekey' | 'adopted-previous-key';

/**
 * The table `document_keys` (migration 012): every key a document carried before its current one.
 * A re-key into NFC-e contingency used to overwrite the first key and its signed XML, so when the
 * authority registered that first key late (issue 20, defect 4) nothing here knew the 539 naming
 * it was about this very note. Callers hold the document's row lock (same transaction).
 */
export class DocumentKeys {
  constructor(private readonly schema: string, private readonly now: () => Date) {}

  private t(name: string): string {
    return `${this.schema}.${name}`;
  }

  /** Keeps the document's current key and signed XML before they are replaced. */
  async release(trx: Knex.Transaction, documentId: string, by: KeyRelease): Promise<void> {
    const row = await trx(this.t('documents')).where({ id: documentId }).first('access_key', 'cnf', 'tp_emis', 'transmitted_xml', 'digest_value', 'qr_code');
    if (!row?.access_key || !row.transmitted_xml) throw new Error(`document ${documentId} has no key to release`);
    await trx(this.t('document_keys')).insert({
      document_id: documentId, access_key: row.access_key, cnf: row.cnf, tp_emis: row.tp_emis, signed_xml: row.transmitted_xml,
      digest_value: row.digest_value, qr_code: row.qr_code, released_by: by, released_at: this.now(),
    }).onConflict(['document_id', 'access_key']).merge();
  }

  async previous(q: Knex | Knex.Transaction, documentId: string, accessKey: string): Promise<PreviousKey | undefined> {
    const row = await q(this.t('document_keys')).where({ document_id: documentId, access_key: accessKey }).first();
    if (!row) return undefined;
    return { accessKey: row.access_key, cnf: row.cnf, tpEmis: Number(row.tp_emis), signedXml: row.signed_xml, digestValue: row.digest_value, qrCode: row.qr_code };
  }

  async forget(trx: Knex.Transaction, documentId: string, accessKey: string): Promise<void> {
    await trx(this.t('document_keys')).where({ document_id: documentId, access_key: accessKey }).delete();
  }
}
