import test from 'ava';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { renderNfeHtml } from '../../../lib/danfe/nfe-html.js';
import { groupAccessKey } from '../../../lib/danfe/format.js';
import { aNfe, anIssuer, anItem } from '../../support/checked-note-factories.js';
import { authorizedProc, manyItemsProc, PROTOCOL, signedNote } from '../../support/danfe-notes.js';
import { readSample } from '../../support/samples.js';

const RS = readSample('nfe/procNFe_RS_hom_43180906929383000163550010000000261000010301.xml');
const SP = readSample('nfe/procNFe_SP_prod_35180834128745000152550010000476051695511860.xml');

test('renderNfeHtml prints the grouped key, the protocol, the barcode, number, series and sheet', (t) => {
  const html = renderNfeHtml(buildDanfeView(RS));
  t.true(html.startsWith('<!DOCTYPE html>'));
  t.true(html.includes('4318 0906 9293 8300 0163 5500 1000 0000 2610 0001 0301'));
  t.true(html.includes('143180006932433 - 25/09/2018 16:21:05'));
  t.true(html.includes('Nº 000.000.026'));
  t.true(html.includes('SÉRIE 001'));
  t.true(html.includes('FOLHA 1/1'));
  t.is((html.match(/<svg [^>]*class="barcode"/g) ?? []).length, 1);
  t.true(html.includes('R$ 500,00') || html.includes('500,00'));
});

test('renderNfeHtml marks a homologation note SEM VALOR FISCAL and a canceled note CANCELADA', (t) => {
  const hom = renderNfeHtml(buildDanfeView(RS));
  t.true(hom.includes('SEM VALOR FISCAL'));
  t.false(hom.includes('class="mark cancelada"'));
  const prod = renderNfeHtml(buildDanfeView(SP));
  t.false(prod.includes('SEM VALOR FISCAL'));
  const canceled = renderNfeHtml(buildDanfeView(SP, { cancelada: true }));
  t.true(canceled.includes('<div class="mark cancelada">CANCELADA</div>'));
});

test('renderNfeHtml escapes every text of the note: a <script> description stays text', (t) => {
  const note = aNfe([anItem({ descricao: `<script>alert("x")</script> & 'aspas'` })], { informacoesComplementares: 'Obs: <b>1 & 2</b>' });
  const html = renderNfeHtml(buildDanfeView(authorizedProc(signedNote(note, { issuer: anIssuer({ razaoSocial: 'A & B <Comercio> "Ltda"' }) }))));
  t.false(html.includes('<script>'));
  t.true(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;aspas&#39;'));
  t.true(html.includes('A &amp; B &lt;Comercio&gt; &quot;Ltda&quot;'));
  t.false(html.includes('<Comercio>'));
  t.true(html.includes('Obs: &lt;b&gt;1 &amp; 2&lt;/b&gt;'));
});

test('renderNfeHtml of a 990-item note: several sheets, header on each, every item exactly once', (t) => {
  const v = buildDanfeView(manyItemsProc(990));
  const html = renderNfeHtml(v);
  const sheets = (html.match(/<section class="page"/g) ?? []).length;
  t.true(sheets > 5, String(sheets));
  for (let i = 1; i <= sheets; i++) t.true(html.includes(`FOLHA ${i}/${sheets}`));
  t.is((html.match(/<b>DANFE<\/b>/g) ?? []).length, sheets);
  t.is((html.match(/class="canhoto"/g) ?? []).length, 1);
  t.is((html.match(new RegExp(groupAccessKey(v.accessKey), 'g')) ?? []).length, sheets + 1); // every header, plus the title
  for (let i = 1; i <= 990; i++) {
    const code = `<td>C${String(i).padStart(4, '0')}</td>`;
    if (html.split(code).length !== 2) t.fail(`${code} appears ${html.split(code).length - 1} times`);
  }
  t.true(html.includes(PROTOCOL));
});

test('renderNfeHtml prints every volume with the total line, the DIFAL boxes and the V. desc. column', async (t) => {
  const { fullProc, oneItemProc } = await import('../../support/danfe-golden-notes.js');
  const html = renderNfeHtml(buildDanfeView(fullProc()));
  for (const v of ['CAIXA', 'PALETE', 'TOTAL', '123,250', '112,625', 'V. FCP UF dest.', 'V. ICMS UF dest.', '56,78', 'V. desc.', '1 - Por conta do Destinatário']) t.true(html.includes(v), v);
  const one = renderNfeHtml(buildDanfeView(oneItemProc()));
  t.false(one.includes('V. desc.'));
  t.false(one.includes('UF dest.'));
});
