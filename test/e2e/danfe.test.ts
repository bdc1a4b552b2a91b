import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { createPartnerWithKey } from '../support/identity.js';
import { aValidNfceBody, aValidNfeBody } from '../support/nfe-factories.js';
import { integratorWithA1, SANDBOX_CSC } from '../support/e2e.js';
import { groupAccessKey } from '../../lib/danfe/format.js';
import { qrSvg } from '../../lib/danfe/qrcode.js';

/**
 * DANFE / DANFCE over HTTP with every service real and the authority simulator: the printable
 * documents of authorized, canceled and contingency notes, the 409 of a note that has none, and
 * the same 404 as the XML route for another partner's id or the other model's path.
 */
let stack: Stack;
let headers: Record<string, string>;
let otherHeaders: Record<string, string>;

test.before(async () => {
  stack = await startStack();
  ({ headers } = await integratorWithA1(stack, SANDBOX_CSC));
  otherHeaders = { 'x-api-key': (await createPartnerWithKey(stack, { plan: 'SCALE' })).apiKey };
});
test.after.always(async () => {
  await stack?.stop();
});

async function emitted(path: 'nfe' | 'nfce', body: unknown = path === 'nfe' ? aValidNfeBody() : aValidNfceBody()) {
  const res = await stack.request('POST', `/v1/${path}`, { headers, body });
  if (res.status !== 201) throw new Error(`emission: ${res.status} ${res.text}`);
  return res.body.data;
}

async function binary(path: string, h = headers) {
  const res = await fetch(stack.url + path, { headers: h });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
/** An error envelope without what differs between two requests. */
const stable = (body: any) => ({ ...body.error, instance: undefined, requestId: undefined, timestamp: undefined });

test.serial('an authorized NF-e: danfe.pdf is a one-page PDF attachment and danfe.html shows the grouped key, the protocol and the homologation mark', async (t) => {
  const doc = await emitted('nfe');
  t.is(doc.status, 'AUTHORIZED');
  t.is(doc.links.danfe, `/v1/nfe/${doc.id}/danfe.pdf`);
  t.is(doc.links.danfeHtml, `/v1/nfe/${doc.id}/danfe.html`);

  const pdf = await binary(doc.links.danfe);
  t.is(pdf.status, 200);
  t.is(pdf.headers.get('content-type'), 'application/pdf');
  t.is(pdf.headers.get('content-disposition'), `attachment; filename="${doc.accessKey}-danfe.pdf"`);
  t.is(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  t.is(pageCount(pdf.bytes), 1);

  const html = await stack.request('GET', doc.links.danfeHtml, { headers });
  t.is(html.status, 200);
  t.is(html.headers.get('content-type'), 'text/html; charset=utf-8');
  t.is(html.headers.get('content-disposition'), `inline; filename="${doc.accessKey}-danfe.html"`);
  t.true(html.text.startsWith('<!DOCTYPE html>'));
  t.true(html.text.includes(groupAccessKey(doc.accessKey)));
  t.regex(doc.protocol, /^\d{15}$/);
  t.true(html.text.includes(doc.protocol));
  t.true(html.text.includes('SEM VALOR FISCAL'));
  t.false(html.text.includes('class="mark cancelada"'));
});

test.serial('an authorized NFC-e: danfce.pdf and danfce.html, whose QR code is the one of the stored qrCode URL', async (t) => {
  const doc = await emitted('nfce');
  t.is(doc.status, 'AUTHORIZED');
  const got = (await stack.request('GET', `/v1/nfce/${doc.id}`, { headers })).body.data;
  t.like(got.links, { danfe: `/v1/nfce/${doc.id}/danfce.pdf`, danfeHtml: `/v1/nfce/${doc.id}/danfce.html` });

  const pdf = await binary(got.links.danfe);
  t.is(pdf.status, 200);
  t.is(pdf.headers.get('content-type'), 'application/pdf');
  t.is(pdf.headers.get('content-disposition'), `attachment; filename="${doc.accessKey}-danfce.pdf"`);
  t.is(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  t.is(pageCount(pdf.bytes), 1);

  const html = await stack.request('GET', got.links.danfeHtml, { headers });
  t.is(html.status, 200);
  t.is(html.headers.get('content-type'), 'text/html; charset=utf-8');
  t.true(html.text.includes(groupAccessKey(doc.accessKey)));
  t.true(html.text.includes(`Protocolo de autorização: ${doc.protocol}`));
  t.true(html.text.includes('EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO – SEM VALOR FISCAL'));
  t.true(html.text.includes(qrSvg(got.qrCode)));
});

test.serial('an NFC-e in offline contingency prints its DANFCE: EMITIDA EM CONTINGÊNCIA, pending authorization, no protocol', async (t) => {
  const doc = await emitted('nfce', aValidNfceBody({ contingencia: true, justificativaContingencia: 'Sem conexao com a internet na loja' }));
  t.is(doc.status, 'CONTINGENCIA_PENDENTE');
  const html = await stack.request('GET', `/v1/nfce/${doc.id}/danfce.html`, { headers });
  t.is(html.status, 200, html.text);
  t.true(html.text.includes('EMITIDA EM CONTINGÊNCIA'));
  t.true(html.text.includes('Pendente de autorização'));
  t.false(html.text.includes('Protocolo de autorização'));
  t.true(html.text.includes(qrSvg(doc.qrCode)));
  const pdf = await binary(`/v1/nfce/${doc.id}/danfce.pdf`);
  t.is(pdf.status, 200);
  t.is(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
});

test.serial('a canceled NF-e still has its DANFE, marked CANCELADA', async (t) => {
  const doc = await emitted('nfe');
  const cancel = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: 'Cancelamento por erro na digitacao do pedido' } });
  t.is(cancel.status, 200, cancel.text);
  const html = await stack.request('GET', `/v1/nfe/${doc.id}/danfe.html`, { headers });
  t.is(html.status, 200);
  t.true(html.text.includes('<div class="mark cancelada">CANCELADA</div>'));
  const pdf = await binary(`/v1/nfe/${doc.id}/danfe.pdf`);
  t.is(pdf.status, 200);
  t.is(pageCount(pdf.bytes), 1);
});

test.serial('a rejected NF-e has no DANFE: 409 DOCUMENTO_SEM_DANFE with its status, for both formats', async (t) => {
  // The authority already holds the next number under another key: 539, the note is REJECTED.
  const first = await emitted('nfe');
  const row = await stack.knex('simulator.notes').where({ access_key: first.accessKey }).first();
  const otherKey = `${first.accessKey.slice(0, 25)}${String(first.number + 1).padStart(9, '0')}${first.accessKey.slice(34, 43)}0`;
  await stack.knex('simulator.notes').insert({ ...row, access_key: otherKey, numero: first.number + 1, protocol: `${row.protocol.slice(0, 14)}9`, receipt: `${row.receipt.slice(0, 14)}9` });
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(res.status, 400, res.text);
  const invoiceId = res.body.error.details.invoiceId;
  t.is(res.body.error.details.status, 'REJECTED');
  for (const format of ['pdf', 'html']) {
    const path = `/v1/nfe/${invoiceId}/danfe.${format}`;
    const got = await stack.request('GET', path, { headers });
    t.deepEqual(got.body, {
      error: {
        type: 'https://errors.test/DOCUMENTO_SEM_DANFE', title: 'Conflict', status: 409,
        detail: 'Documento rejeitado não tem DANFE: só documentos autorizados, cancelados ou NFC-e emitida em contingência.',
        details: { status: 'REJECTED' }, instance: path, requestId: got.headers.get('x-request-id'), timestamp: got.body.error.timestamp,
      },
    });
  }
});

test.serial("another partner's id, or the other model's path, answers the same 404 as the XML route", async (t) => {
  const nfe = await emitted('nfe');
  const nfce = await emitted('nfce');
  const xml404 = await stack.request('GET', `/v1/nfe/${nfe.id}/xml`, { headers: otherHeaders });
  t.is(xml404.status, 404);
  t.is(xml404.body.error.type, 'https://errors.test/NOT_FOUND');
  for (const path of [`/v1/nfe/${nfe.id}/danfe.pdf`, `/v1/nfe/${nfe.id}/danfe.html`]) {
    const other = await stack.request('GET', path, { headers: otherHeaders });
    t.is(other.status, 404);
    t.deepEqual(stable(other.body), stable(xml404.body));
    t.is(other.body.error.instance, path);
  }
  // NF-e path with an NFC-e id (and the reverse): the XML route's wrong-model 404.
  const wrongXml = await stack.request('GET', `/v1/nfe/${nfce.id}/xml`, { headers });
  t.is(wrongXml.status, 404);
  for (const path of [`/v1/nfe/${nfce.id}/danfe.pdf`, `/v1/nfce/${nfe.id}/danfce.pdf`, `/v1/nfce/${nfe.id}/danfce.html`]) {
    const wrong = await stack.request('GET', path, { headers });
    t.deepEqual(stable(wrong.body), stable(wrongXml.body), path);
  }
  // The NF-e document name under the NFC-e path is no route at all.
  const noRoute = await stack.request('GET', `/v1/nfce/${nfce.id}/danfe.pdf`, { headers });
  t.like(noRoute.body.error, { type: 'https://errors.test/NOT_FOUND', status: 404, detail: 'Rota não encontrada.' });
  const unknown = await stack.request('GET', '/v1/nfe/00000000-0000-4000-8000-000000000000/danfe.pdf', { headers });
  t.deepEqual(stable(unknown.body), stable(xml404.body));
});
