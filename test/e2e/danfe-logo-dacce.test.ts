import test from 'ava';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { startStack, type Stack } from '../support/stack.js';
import { createPartnerWithKey } from '../support/identity.js';
import { aValidNfeBody } from '../support/nfe-factories.js';
import { integratorWithA1, SANDBOX_CSC } from '../support/e2e.js';
import { groupAccessKey } from '../../lib/danfe/format.js';
import { verifyDfeFiles } from '../support/verify-dfe.js';
import { pngBomb, pngWithBackwardChunk, pngWithGarbageIdat, pngWithSecondHeader, pngWithUnknownFilter } from '../support/hostile-png.js';

/**
 * Issue 22 items 4 and 5 over HTTP with every service real and the authority simulator: the
 * issuer's logo (PUT/GET/DELETE /v1/companies/:id/logo, its refusals, the DANFE that prints it)
 * and the DACCe of a registered CC-e (409 for a cancellation, 404 for another partner).
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;
let otherHeaders: Record<string, string>;

const fixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/logo/${name}`, import.meta.url));
const png = (width: number, height: number): Buffer => {
  const p = new PNG({ width, height });
  p.data.fill(90);
  return PNG.sync.write(p);
};

test.before(async () => {
  stack = await startStack({ env: { AUTH_SCRYPT_N: '1024' } });
  ({ headers, issuerId } = await integratorWithA1(stack, SANDBOX_CSC));
  otherHeaders = { 'x-api-key': (await createPartnerWithKey(stack, { plan: 'SCALE' })).apiKey };
});
test.after.always(async () => {
  await stack?.stop();
});

async function binary(path: string, h = headers) {
  const res = await fetch(stack.url + path, { headers: h });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function authorizedNfe() {
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  if (res.status !== 201) throw new Error(`emission: ${res.status} ${res.text}`);
  return res.body.data;
}

function envelope(res: any, path: string, status: number, title: string, code: string, detail: string, details?: Record<string, unknown>) {
  return {
    error: {
      type: `https://errors.test/${code}`, title, status, detail, ...(details ? { details } : {}),
      instance: path, requestId: res.headers.get('x-request-id'), timestamp: res.body.error?.timestamp,
    },
  };
}

test.serial('logo: every refusal is a 422 with its code and nothing is stored; GET then answers 404 LOGO_AUSENTE', async (t) => {
  const path = `/v1/companies/${issuerId}/logo`;
  const cases: [string, Buffer, string, string, Record<string, unknown>?][] = [
    ['GIF', Buffer.from('GIF89a\x40\x00\x40\x00\x00\x00\x00;', 'latin1'), 'LOGO_FORMATO_INVALIDO', 'Logotipo deve ser uma imagem PNG ou JPEG válida.'],
    ['PNG cut short', fixture('logo.png').subarray(0, 60), 'LOGO_FORMATO_INVALIDO', 'Logotipo deve ser uma imagem PNG ou JPEG válida.'],
    ['16 px wide', png(16, 64), 'LOGO_DIMENSOES_INVALIDAS', 'Logotipo deve ter entre 32 e 2000 pixels de largura e de altura.', { width: 16, height: 64, min: 32, max: 2000 }],
    ['over 256 KB', Buffer.concat([fixture('logo.png'), Buffer.alloc(256 * 1024)]), 'LOGO_GRANDE_DEMAIS', 'Logotipo excede o tamanho máximo de 256 KB.', { bytes: fixture('logo.png').length + 256 * 1024, max: 262144 }],
    // PNGs that lie to pdfkit's decoder: each hung, exhausted or crashed the issuer service before.
    ['PNG chunk length with the high bit set', pngWithBackwardChunk(), 'LOGO_FORMATO_INVALIDO', 'Logotipo deve ser uma imagem PNG ou JPEG válida.'],
    ['RGBA PNG whose IDAT is not zlib', pngWithGarbageIdat(), 'LOGO_FORMATO_INVALIDO', 'Logotipo deve ser uma imagem PNG ou JPEG válida.'],
    ['PNG with a second IHDR of 40000 px', pngWithSecondHeader(), 'LOGO_FORMATO_INVALIDO', 'Logotipo deve ser uma imagem PNG ou JPEG válida.'],
    ['PNG scanline with filter type 9', pngWithUnknownFilter(), 'LOGO_FORMATO_INVALIDO', 'Logotipo deve ser uma imagem PNG ou JPEG válida.'],
    ['PNG decompression bomb', pngBomb(), 'LOGO_FORMATO_INVALIDO', 'Logotipo deve ser uma imagem PNG ou JPEG válida.'],
  ];
  for (const [name, bytes, code, detail, details] of cases) {
    const res = await stack.request('PUT', path, { headers, body: { imagemBase64: bytes.toString('base64') } });
    t.is(res.status, 422, name);
    t.deepEqual(res.body, envelope(res, path, 422, 'Unprocessable Entity', code, detail, details), name);
  }
  const none = await stack.request('GET', path, { headers });
  t.deepEqual(none.body, envelope(none, path, 404, 'Not Found', 'LOGO_AUSENTE', 'Emissor sem logotipo cadastrado.'));
  t.is((await stack.knex('issuer.issuers').where({ id: issuerId }).first()).logo, null);
});

test.serial('logo: a PNG is stored, served back byte for byte and printed on the DANFE; DELETE takes it off the next DANFE', async (t) => {
  const path = `/v1/companies/${issuerId}/logo`;
  const put = await stack.request('PUT', path, { headers, body: { imagemBase64: fixture('logo.png').toString('base64') } });
  t.is(put.status, 200, put.text);
  t.deepEqual(put.body.data, { issuerId, logo: { tipo: 'image/png', largura: 120, altura: 80, bytes: fixture('logo.png').length } });
  const got = await binary(path);
  t.is(got.status, 200);
  t.is(got.headers.get('content-type'), 'image/png');
  t.deepEqual(got.bytes, fixture('logo.png'));
  t.is((await binary(path, otherHeaders)).status, 404);

  const doc = await authorizedNfe();
  const pdf = await binary(`/v1/nfe/${doc.id}/danfe.pdf`);
  t.is(pdf.status, 200);
  t.is((pdf.bytes.toString('latin1').match(/\/Subtype \/Image/g) ?? []).length, 1);
  const html = await stack.request('GET', `/v1/nfe/${doc.id}/danfe.html`, { headers });
  t.true(html.text.includes(`<img class="logo" alt="" src="data:image/png;base64,${fixture('logo.png').toString('base64')}">`));

  const jpeg = await stack.request('PUT', path, { headers, body: { imagemBase64: fixture('logo.jpg').toString('base64') } });
  t.like(jpeg.body.data, { logo: { tipo: 'image/jpeg', largura: 120, altura: 80 } });
  const del = await stack.request('DELETE', path, { headers });
  t.deepEqual(del.body.data, { issuerId, logo: null });
  const after = await binary(`/v1/nfe/${doc.id}/danfe.pdf`);
  t.false(after.bytes.toString('latin1').includes('/Subtype /Image'));
});

test.serial('DACCe: a registered CC-e prints as PDF and HTML; a reprint with cartaCorrecao=true carries the last CC-e; a cancellation answers 409 EVENTO_SEM_DACCE; another partner 404', async (t) => {
  const doc = await authorizedNfe();
  const correcao = 'Placa do veiculo transportador: ABC1D23 & observacao <urgente>';
  const cce = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao } });
  t.is(cce.status, 201, cce.text);
  const ev = cce.body.data;
  const base = `/v1/nfe/${doc.id}/eventos/${ev.id}`;

  const pdf = await binary(`${base}/dacce.pdf`);
  t.is(pdf.status, 200);
  t.is(pdf.headers.get('content-type'), 'application/pdf');
  t.is(pdf.headers.get('content-disposition'), `attachment; filename="${doc.accessKey}-110110-01-dacce.pdf"`);
  t.is(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  t.is((pdf.bytes.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length, 1);

  const html = await stack.request('GET', `${base}/dacce.html`, { headers });
  t.is(html.status, 200);
  t.is(html.headers.get('content-type'), 'text/html; charset=utf-8');
  t.is(html.headers.get('content-disposition'), `inline; filename="${doc.accessKey}-110110-01-dacce.html"`);
  for (const s of [groupAccessKey(doc.accessKey), 'Placa do veiculo transportador: ABC1D23 &amp; observacao &lt;urgente&gt;', 'SEM VALOR FISCAL', '135 - ']) t.true(html.text.includes(s), s);

  // A second CC-e replaces the first: the reprint asked with cartaCorrecao=true carries the last one.
  const second = await stack.request('POST', `/v1/nfe/${doc.id}/carta-correcao`, { headers, body: { correcao: 'Segunda carta: placa ABC1D23 e volumes 1-3' } });
  t.is(second.status, 201, second.text);
  const reprint = await stack.request('GET', `/v1/nfe/${doc.id}/danfe.html?cartaCorrecao=true`, { headers });
  t.regex(reprint.text, /CARTA DE CORREÇÃO Nº 2 \(protocolo \d{15}, [\d/]{10} [\d:]{8}\): Segunda carta: placa ABC1D23 e volumes 1-3/);
  t.false(reprint.text.includes('CARTA DE CORREÇÃO Nº 1'));
  t.false((await stack.request('GET', `/v1/nfe/${doc.id}/danfe.html`, { headers })).text.includes('CARTA DE CORREÇÃO'));
  t.is((await binary(`/v1/nfe/${doc.id}/danfe.pdf?cartaCorrecao=true`)).status, 200);

  const cancel = await stack.request('POST', `/v1/nfe/${doc.id}/cancelamento`, { headers, body: { justificativa: 'Cancelamento por erro na digitacao do pedido' } });
  t.is(cancel.status, 200, cancel.text);
  for (const format of ['pdf', 'html']) {
    const path = `/v1/nfe/${doc.id}/eventos/${cancel.body.data.id}/dacce.${format}`;
    const res = await stack.request('GET', path, { headers });
    t.deepEqual(res.body, envelope(res, path, 409, 'Conflict', 'EVENTO_SEM_DACCE', 'Só a carta de correção tem DACCe; este evento é de outro tipo.', { tipo: 'cancelamento' }));
  }
  // The CC-e of a note canceled afterwards still prints.
  t.is((await binary(`${base}/dacce.pdf`)).status, 200);
  const foreign = await stack.request('GET', `${base}/dacce.pdf`, { headers: otherHeaders });
  const xmlForeign = await stack.request('GET', `${base}/xml`, { headers: otherHeaders });
  t.is(foreign.status, 404);
  t.is(foreign.body.error.type, xmlForeign.body.error.type);
  t.is(foreign.body.error.detail, xmlForeign.body.error.detail);
  const unknownEvent = `/v1/nfe/${doc.id}/eventos/00000000-0000-4000-8000-000000000000/dacce.pdf`;
  const unknown = await stack.request('GET', unknownEvent, { headers });
  t.deepEqual(unknown.body, envelope(unknown, unknownEvent, 404, 'Not Found', 'NOT_FOUND', 'Evento não encontrado.'));
});

test.serial('formatoDanfe on the issuer: the next NF-e carries tpImp 2 (landscape DANFE) or 3 (simplified label), its XML passes verify-dfe, and danfe.pdf and danfe.html both take that format', async (t) => {
  const expected: Record<number, RegExp> = { 2: /\/MediaBox \[0 0 841\.89 595\.28\]/, 3: /\/MediaBox \[0 0 283\.46\d* 425\.19\d*\]/ };
  const expectedHtml: Record<number, string> = { 2: '@page{size:A4 landscape;margin:0}', 3: '@page{size:100mm 150mm;margin:0}' };
  for (const formatoDanfe of [2, 3]) {
    const patch = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { formatoDanfe } });
    t.is(patch.status, 200, patch.text);
    t.is(patch.body.data.formatoDanfe, formatoDanfe);
    const doc = await authorizedNfe();
    const xml = await stack.request('GET', `/v1/nfe/${doc.id}/xml`, { headers });
    t.true(xml.text.includes(`<tpImp>${formatoDanfe}</tpImp>`));
    const check = await verifyDfeFiles({ [`tpImp-${formatoDanfe}`]: xml.text });
    t.true(check.ok, check.output);
    const pdf = await binary(`/v1/nfe/${doc.id}/danfe.pdf`);
    t.regex(pdf.bytes.toString('latin1'), expected[formatoDanfe]!);
    const html = await stack.request('GET', `/v1/nfe/${doc.id}/danfe.html`, { headers });
    t.is(html.status, 200);
    t.is(html.headers.get('content-type'), 'text/html; charset=utf-8');
    t.true(html.text.includes(expectedHtml[formatoDanfe]!), `formatoDanfe ${formatoDanfe}`);
    t.is(html.text.includes('DANFE SIMPLIFICADO - ETIQUETA'), formatoDanfe === 3);
    t.is(html.text.includes('class="canhoto"'), formatoDanfe === 2);
  }
  const bad = await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { formatoDanfe: 4 } });
  t.is(bad.status, 400);
  t.like(bad.body.error, { type: 'https://errors.test/VALIDATION_ERROR', status: 400 });
  t.deepEqual(bad.body.error.errors.map((e: { field: string }) => e.field), ['formatoDanfe']);
  t.is((await stack.request('PATCH', `/v1/companies/${issuerId}`, { headers, body: { formatoDanfe: 1 } })).body.data.formatoDanfe, 1);
});
