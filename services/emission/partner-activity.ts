import type { Knex } from 'knex';

/**
 * The first-document flag of a partner (issue 23, defect 5; API.md, Resources > Partner: a partner
 * that has emitted a fiscal document cannot be deactivated). Emission owns it: the row is written
 * in the transaction that stores the partner's first document, so it exists exactly when a
 * document does, on every node, whatever happens afterwards. auth asks for it through
 * v1.emission.partnerActivity before a deactivation; emission never writes auth's tables.
 */
export const PARTNER_ACTIVITY_TABLE = 'partner_first_documents';

export interface PartnerActivity {
  partnerId: string;
  hasDocuments: boolean;
  firstDocumentAt: string | null;
}

/** In the document's own transaction: the first document of the partner sets the flag, later ones change nothing. */
export async function recordFirstDocument(trx: Knex.Transaction, schema: string, doc: { id: string; partner_id: string; created_at: Date }): Promise<void> {
  await trx(`${schema}.${PARTNER_ACTIVITY_TABLE}`).insert({ partner_id: doc.partner_id, document_id: doc.id, created_at: doc.created_at }).onConflict('partner_id').ignore();
}

export async function partnerActivity(knex: Knex, schema: string, partnerId: string): Promise<PartnerActivity> {
  const row = await knex(`${schema}.${PARTNER_ACTIVITY_TABLE}`).where({ partner_id: partnerId }).first('created_at');
  return { partnerId, hasDocuments: !!row, firstDocumentAt: row ? new Date(row.created_at).toISOString() : null };
}
