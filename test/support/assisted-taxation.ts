import type { ExecutionContext } from 'ava';
import { aValidNfceBody, aValidNfeBody, anItem, closingPayments } from './nfe-factories.js';
import type { Item } from '../../lib/nfe/types.js';
import type { Stack } from './stack.js';

/** Test helpers of assisted taxation (issue 17): items by NCM and the whole error envelope. */

/** Rice (NCM 1006.30.21, LC 214 Anexo I item 1): candidates 000001 and 200003. */
export const RICE = { codigo: 'ARROZ-5KG', descricao: 'Arroz branco tipo 1 5kg', ncm: '10063021' } as const;
/** Cotton T-shirt (6109.10.00): in no annex, so 000001 is its single candidate. */
export const SHIRT = { codigo: 'CAMISETA-P', descricao: 'Camiseta de algodao', ncm: '61091000' } as const;
/** Surgical instrument (9018.90.99): Anexo IV and XII; 200005 (public administration) is not admitted in the NFC-e. */
export const DEVICE = { codigo: 'BISTURI-3', descricao: 'Instrumento cirurgico', ncm: '90189099' } as const;

export const FONTE = 'LC 214/2025, anexos por NCM (correlação derivada, não oficial: classe candidata) + tabela cClassTrib';

/** An item of 100.00 (anItem) as a product, without ibsCbs unless given. */
export function goodsItem(product: { codigo: string; descricao: string; ncm: string }, over: Partial<Item> = {}): Item {
  return anItem({ ...product, ...over });
}

/** An NF-e (or NFC-e with model '65') of these items, paid in full, with resolverTributacao unless overridden. */
export function noteOf(items: Item[], over: Record<string, unknown> = {}, model: '55' | '65' = '55'): Record<string, unknown> {
  const base = model === '55' ? aValidNfeBody({ items, pagamentos: closingPayments(items) }) : aValidNfceBody({ items, pagamentos: closingPayments(items) });
  return { ...base, resolverTributacao: true, ...over };
}

/** The whole error envelope of API.md (type, title, status, detail, details, instance; requestId and timestamp present). */
export function assertEnvelope(t: ExecutionContext, res: { status: number; body: any; text: string }, status: number, slug: string, detail: string, details: unknown, instance: string): void {
  t.is(res.status, status, res.text);
  const { requestId, timestamp, title, ...rest } = res.body.error;
  t.deepEqual(rest, { type: `https://errors.test/${slug}`, status, detail, ...(details === undefined ? {} : { details }), instance });
  t.truthy(title);
  t.truthy(requestId);
  t.truthy(timestamp);
}

/** Polls `fn` until it returns a truthy value (an outbox event on its way), up to ~10 s. */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached');
}

/** The product-class events the emission wrote in its outbox for a document (services/shared/product-class-event.ts). */
export async function classEventsOf(stack: Stack, documentId: string): Promise<unknown[]> {
  const rows = await stack.knex('emission.outbox').where({ channel: 'classification.product-classes' }).select('payload');
  return rows.map((r: any) => r.payload).filter((p: any) => p.data.documentId === documentId);
}

/** The stored product class of an item code, as the classification service keeps it. */
export async function productClassRow(stack: Stack, issuerId: string, codigo: string): Promise<Record<string, unknown> | undefined> {
  return stack.knex('classification.product_classes').where({ issuer_id: issuerId, codigo }).first();
}

export async function pendentes(stack: Stack, headers: Record<string, string>, issuerId: string): Promise<any[]> {
  const res = await stack.request('GET', `/v1/fiscal/classification/pendentes?issuerId=${issuerId}`, { headers });
  if (res.status !== 200) throw new Error(`pendentes: ${res.status} ${res.text}`);
  return res.body.data.items;
}
