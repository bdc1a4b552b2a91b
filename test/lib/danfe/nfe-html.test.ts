import test from 'ava';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { firstSheetLines, htmlSheetFor, renderNfeHtml } from '../../../lib/danfe/nfe-html.js';
import { formatCnpjCpf, formatMoney, formatNumber, formatSerie, groupAccessKey } from '../../../lib/danfe/format.js';
import { esc } from '../../../lib/danfe/html.js';
import { LABEL_ITEM_LINES } from '../../../lib/danfe/nfe-simplificado-html.js';
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

const asTpImp = (xml: string, tpImp: 2 | 3) => xml.replace('<tpImp>1</tpImp>', `<tpImp>${tpImp}</tpImp>`);

test('renderNfeHtml prints A4 portrait for tpImp 1 and landscape for tpImp 2, every item once on more, shorter sheets', (t) => {
  const portrait = renderNfeHtml(buildDanfeView(manyItemsProc(200)));
  t.true(portrait.includes('@page{size:A4 portrait;margin:0}.page{width:210mm;min-height:297mm}'));
  const v = buildDanfeView(asTpImp(manyItemsProc(200), 2));
  t.is(v.tpImp, 2);
  const html = renderNfeHtml(v);
  t.true(html.includes('@page{size:A4 landscape;margin:0}.page{width:297mm;min-height:210mm}'));
  t.false(html.includes('portrait'));
  const sheets = (html.match(/<section class="page"/g) ?? []).length;
  t.true(sheets > (portrait.match(/<section class="page"/g) ?? []).length, String(sheets));
  for (let i = 1; i <= sheets; i++) t.true(html.includes(`FOLHA ${i}/${sheets}`));
  t.is((html.match(/<b>DANFE<\/b>/g) ?? []).length, sheets);
  t.is((html.match(/class="canhoto"/g) ?? []).length, 1);
  for (let i = 1; i <= 200; i++) {
    const code = `<td>C${String(i).padStart(4, '0')}</td>`;
    if (html.split(code).length !== 2) t.fail(`${code} appears ${html.split(code).length - 1} times`);
  }
});

test('renderNfeHtml prints the simplified label for tpImp 3: 100 × 150 mm with the blocks of the PDF label', async (t) => {
  const { fullProc } = await import('../../support/danfe-golden-notes.js');
  const v = buildDanfeView(asTpImp(fullProc(), 3));
  const html = renderNfeHtml(v);
  t.true(html.includes('@page{size:100mm 150mm;margin:0}'));
  t.true(html.includes('.label{position:relative;width:100mm;height:150mm;'));
  t.is((html.match(/<section class="label"/g) ?? []).length, 1);
  t.false(html.includes('class="canhoto"'), 'no A4 blocks');
  t.false(html.includes('<b>DANFE</b>'));
  t.is((html.match(/<svg [^>]*class="barcode"/g) ?? []).length, 1);
  const order = [
    'class="barcode"', groupAccessKey(v.accessKey), 'DANFE SIMPLIFICADO - ETIQUETA', 'Protocolo de autorização de uso',
    `${v.protocolo!.numero} - `, '1 - SAÍDA', formatNumber(v.numero), formatSerie(v.serie), 'EMITENTE', v.emitente.nome,
    formatCnpjCpf(v.emitente.documento), 'DESTINATÁRIO', v.destinatario!.nome, formatCnpjCpf(v.destinatario!.documento),
    'Valor total da NF-e', `R$ ${formatMoney(v.totais.vNF)}`, v.items[0]!.codigo,
  ];
  let at = 0;
  for (const text of order) {
    const raw = html.indexOf(text, at);
    const i = raw >= 0 ? raw : html.indexOf(esc(text), at);
    t.true(i >= at, `"${text}" after the previous block`);
    at = Math.max(at, i);
  }
  t.true(html.includes('SEM VALOR FISCAL'), 'homologation mark');
});

test('renderNfeHtml on the label: items beyond its room are counted, texts escaped, contingency without protocol', (t) => {
  const many = renderNfeHtml(buildDanfeView(asTpImp(manyItemsProc(30), 3)));
  t.is((many.match(/<div>C\d{4} · /g) ?? []).length, LABEL_ITEM_LINES);
  t.true(many.includes(`+ ${30 - LABEL_ITEM_LINES} itens: consulte a NF-e pela chave de acesso`));
  const note = aNfe([anItem({ descricao: '<script>x</script>' })]);
  const signed = signedNote(note, { issuer: anIssuer({ razaoSocial: 'A & B <Comercio>' }) });
  const escaped = renderNfeHtml(buildDanfeView(asTpImp(authorizedProc(signed), 3)));
  t.false(escaped.includes('<script>'));
  t.true(escaped.includes('A &amp; B &lt;Comercio&gt;'));
  t.false(escaped.includes('+ '), 'one item: nothing to count');
  const unsent = renderNfeHtml(buildDanfeView(asTpImp(signed.xml, 3)));
  t.true(unsent.includes('EMITIDA EM CONTINGÊNCIA - pendente de autorização'));
});

test('renderNfeHtml gives the first sheet\'s item room to its volumes and duplicatas: a full landscape first sheet carries no items', async (t) => {
  const { fullProc, oneItemProc } = await import('../../support/danfe-golden-notes.js');
  const full = buildDanfeView(asTpImp(fullProc(), 2));
  t.is(firstSheetLines(buildDanfeView(asTpImp(oneItemProc(), 2)), htmlSheetFor(2)), 5);
  t.is(firstSheetLines(buildDanfeView(fullProc()), htmlSheetFor(1)), 24 - 3 * (2 + 3), 'a second volume and the total; title, fatura and one row of duplicatas');
  t.true(firstSheetLines(full, htmlSheetFor(2)) <= 0);
  const sheets = renderNfeHtml(full).split('<section class="page"').slice(1);
  t.false(sheets[0]!.includes('class="itens"'));
  t.true(sheets[0]!.includes('Dados adicionais'));
  t.true(sheets[1]!.includes('class="itens"'));
  for (const item of full.items) t.is(sheets.join('').split(`<td>${item.codigo}</td>`).length, 2, item.codigo);
});
