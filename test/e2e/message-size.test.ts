import test from 'ava';
import { STATUS_CODES } from 'node:http';
import { startStack, type Stack } from '../support/stack.js';
import { aCompactItem, aValidNfeBody, anItem, closingPayments, IBS_CBS } from '../support/nfe-factories.js';
import { integratorWithA1 } from '../support/e2e.js';
import { verifyDfeFiles } from '../support/verify-dfe.js';
import { CATALOG } from '../../lib/errors/index.js';
import { MAX_MESSAGE_BYTES } from '../../lib/sefaz/message-limit.js';
import type { Item } from '../../lib/nfe/types.js';

/**
 * The authority refuses a message over 500 KB with cStat 214 (the simulator too). A note that
 * large is refused by the product instead, 422 DOCUMENTO_EXCEDE_TAMANHO_MAXIMO before numbering:
 * nothing stored, nothing transmitted, no number used. 990 items that fit are authorized.
 */
let stack: Stack;
let headers: Record<string, string>;
test.before(async () => {
  stack = await startStack();
  ({ headers } = await integratorWithA1(stack));
});
test.after.always(async () => { await stack?.stop(); });

function bodyOf(item: (i: number) => Item) {
  const items = Array.from({ length: 990 }, (_, i) => item(i + 1));
  return aValidNfeBody({ items, pagamentos: closingPayments(items) });
}
/** ~1 KB in the XML: ICMS 00, PIS/COFINS 01, IBS/CBS. */
const full = (i: number) => anItem({ codigo: `SKU-${i}`, descricao: `Produto de teste numero ${i} com descricao razoavelmente longa`, ibsCbs: IBS_CBS });
const compact = (i: number) => aCompactItem({ codigo: String(i), descricao: `Produto ${i}` });
const documents = async () => Number((await stack.knex('emission.documents').count('* as n'))[0]!.n);

test.serial('990 items of ~1 KB answer 422 DOCUMENTO_EXCEDE_TAMANHO_MAXIMO before numbering; 990 items that fit are authorized as number 1', async (t) => {
  const res = await stack.request('POST', '/v1/nfe', { headers, body: bodyOf(full) });
  t.is(res.status, 422, res.text);
  const size = res.body.error?.details?.tamanhoBytes;
  t.true(Number.isInteger(size) && size > 1_000_000 && size < 1_100_000, String(size));
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/DOCUMENTO_EXCEDE_TAMANHO_MAXIMO', title: STATUS_CODES[422], status: 422,
      detail: CATALOG.DOCUMENTO_EXCEDE_TAMANHO_MAXIMO.detail, details: { tamanhoBytes: size, limiteBytes: MAX_MESSAGE_BYTES },
      instance: '/v1/nfe', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is(await documents(), 0, 'the refusal stored nothing');

  const ok = await stack.request('POST', '/v1/nfe', { headers, body: bodyOf(compact) });
  t.is(ok.status, 201, ok.text);
  t.is(ok.body.data.status, 'AUTHORIZED');
  t.is(ok.body.data.number, 1, 'the refused note used no number');
  const xml = await stack.request('GET', `/v1/nfe/${ok.body.data.id}/xml`, { headers });
  t.is((xml.text.match(/<det nItem="/g) ?? []).length, 990);
  const independent = await verifyDfeFiles({ nfeProc: xml.text });
  t.true(independent.ok, independent.output);
});

test.serial('900 000 empty items (within the body limit and the node bound) are refused 400 by the items bound alone, without validating each item (11 s before)', async (t) => {
  // The items used to be validated one by one past the bound: 11 s and 7.2 million errors.
  const items = Array.from({ length: 900_000 }, () => ({}));
  const started = performance.now();
  const res = await stack.request('POST', '/v1/nfe', { headers, body: { ...aValidNfeBody(), items } });
  const ms = performance.now() - started;
  t.is(res.status, 400, res.text.slice(0, 500));
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/VALIDATION_ERROR', title: STATUS_CODES[400], status: 400, detail: CATALOG.VALIDATION_ERROR.detail,
      errors: [{ field: 'items', message: "O campo 'items' deve ter no máximo 990 elementos." }],
      instance: '/v1/nfe', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.true(ms < 5_000, `${ms.toFixed(0)} ms`); // parsing 2.7 MB of JSON included
  t.is(await documents(), 1, 'nothing stored beyond the note of the test before');
});
