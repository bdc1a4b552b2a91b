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

/**
 * In the document's own transaction: the first document of the partner sets the flag, later ones
 * change nothing. A writable CTE (`<name> as (…)`) with its bindings, so the store writes it in the
 * statement that inserts the document (issue 18: one round trip less under the number lock).
 */
export function firstDocumentCte(name: string, schema: string, doc: { id: string; partner_id: string; created_at: Date }, onlyAfter?: string): { sql: string; bindings: Knex.Value[] } {
  // `onlyAfter`: the CTE whose rows say the document was inserted (none: nothing is written).
  const values = onlyAfter ? `select ?, ?, ? from ${onlyAfter}` : 'values (?, ?, ?)';
  return {
    sql: `${name} as (insert into ?? (partner_id, document_id, created_at) ${values} on conflict (partner_id) do nothing)`,
    bindings: [`${schema}.${PARTNER_ACTIVITY_TABLE}`, doc.partner_id, doc.id, doc.created_at],
  };
}

/**
 * firstDocumentCte for several documents stored in one statement (a group of a series' notes or
 * a série's DPS: services/emission/group-claim.ts). Its text depends only on how many documents there are
 * (so a prepared form serves every group of that size): each partner's first, in the order given, sets the flag.
 */
export function firstDocumentsCte(name: string, schema: string, docs: ReadonlyArray<{ id: string; partner_id: string; created_at: Date }>): { sql: string; bindings: Knex.Value[] } {
  // The position orders a partner's documents of the group: the lowest number is its first.
  const rows = docs.map((_, i) => `(?::varchar, ?::uuid, ?::timestamptz, ${i})`).join(', ');
  return {
    sql: `${name} as (insert into ?? (partner_id, document_id, created_at)
      select distinct on (partner_id) partner_id, document_id, created_at from (values ${rows}) as d (partner_id, document_id, created_at, position)
      order by partner_id, position
      on conflict (partner_id) do nothing)`,
    bindings: [`${schema}.${PARTNER_ACTIVITY_TABLE}`, ...docs.flatMap((d) => [d.partner_id, d.id, d.created_at])],
  };
}

export async function partnerActivity(knex: Knex, schema: string, partnerId: string): Promise<PartnerActivity> {
  const row = await knex(`${schema}.${PARTNER_ACTIVITY_TABLE}`).where({ partner_id: partnerId }).first('created_at');
  return { partnerId, hasDocuments: !!row, firstDocumentAt: row ? new Date(row.created_at).toISOString() : null };
}
