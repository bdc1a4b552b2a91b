import test from 'ava';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { renderNfePdf, renderNfePdfWithLayout } from '../../../lib/danfe/nfe-pdf.js';
import { impostoRows } from '../../../lib/danfe/nfe-fields.js';
import { pdfPages, pdfText } from '../../support/danfe-notes.js';
import { fullProc, oneItemProc } from '../../support/danfe-golden-notes.js';

const FULL = fullProc();
const ONE = oneItemProc();
const lines = (pdf: Buffer): string[] => pdfText(pdf).split('\n');

/** The decoded TJ strings of each uncompressed content stream, in drawing order. */
function streamsText(pdf: Buffer): string[][] {
  const out: string[][] = [];
  for (const s of pdf.toString('latin1').split(/\bstream\r?\n/).slice(1)) {
    const body = s.split(/\r?\nendstream/)[0]!;
    if (!/TJ/.test(body)) continue;
    out.push([...body.matchAll(/\[([^\]]*)\]\s*TJ/g)].map((m) => [...m[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join('')));
  }
  return out;
}

test('renderNfePdf prints every volume and a line with the summed quantity and weights', async (t) => {
  const l = lines(await renderNfePdf(buildDanfeView(FULL), { compress: false }));
  for (const v of ['CAIXA', 'PALETE', '1-3', '4-5', '13,250', '110,000', '12,500', '100,125', 'TOTAL', '5', '123,250', '112,625']) t.true(l.includes(v), v);
});

test('renderNfePdf sends volumes beyond four to the additional data, none dropped', async (t) => {
  const vols = Array.from({ length: 6 }, (_, i) => `<vol><qVol>1</qVol><esp>VOLUME${i + 1}</esp><pesoB>1.000</pesoB></vol>`).join('');
  const xml = ONE.replace(/<transp>([\s\S]*?)<\/transp>/, `<transp>$1${vols}</transp>`);
  const l = lines(await renderNfePdf(buildDanfeView(xml), { compress: false }));
  for (const v of ['VOLUME1', 'VOLUME2', 'VOLUME3', 'VOLUME4', 'TOTAL', '6', '6,000']) t.true(l.includes(v), v);
  t.false(l.includes('VOLUME5'));
  t.true(l.some((x) => x.includes('Volumes (continuação): 1 VOLUME5 P.B. 1,000; 1 VOLUME6 P.B. 1,000.')));
});

test('renderNfePdf prints the freight modality whole, never cut with an ellipsis', async (t) => {
  const l = lines(await renderNfePdf(buildDanfeView(FULL), { compress: false }));
  t.true(l.includes('1 - Por conta do Destinatário'));
  const own = ONE.replace(/<modFrete>\d<\/modFrete>/, '<modFrete>4</modFrete>');
  t.true(lines(await renderNfePdf(buildDanfeView(own), { compress: false })).includes('4 - Transporte Próprio Destinatário'));
});

test('renderNfePdf prints FCP and FCP-ST totals always, and the DIFAL boxes when the note has them', async (t) => {
  const full = lines(await renderNfePdf(buildDanfeView(FULL), { compress: false }));
  for (const v of ['VALOR DO FCP', 'VALOR DO FCP S.T.', 'V. ICMS UF REMET.', 'V. FCP UF DEST.', 'V. ICMS UF DEST.', '12,34', '56,78', '59,10']) t.true(full.includes(v), v);
  const one = lines(await renderNfePdf(buildDanfeView(ONE), { compress: false }));
  t.true(one.includes('VALOR DO FCP'));
  t.false(one.some((x) => x.includes('UF DEST')));
});

test('impostoRows places the DIFAL boxes before the product and note totals', (t) => {
  const rows = impostoRows(buildDanfeView(FULL));
  t.deepEqual(rows[0]!.slice(-3), [['V. ICMS UF remet.', '0.00'], ['V. FCP UF dest.', '12.34'], ['Valor total dos produtos', '2955.00']]);
  t.deepEqual(rows[1]!.slice(-2), [['V. ICMS UF dest.', '56.78'], ['Valor total da nota', '2941.50']]);
});

test('renderNfePdf adds a V. DESC. column only when some item has a discount', async (t) => {
  const full = lines(await renderNfePdf(buildDanfeView(FULL), { compress: false }));
  t.true(full.includes('V. DESC.'));
  t.is(full.filter((x) => x === '1,50').length, 9);
  t.false(lines(await renderNfePdf(buildDanfeView(ONE), { compress: false })).includes('V. DESC.'));
});

test('renderNfePdf draws the watermark first on every sheet, so grids and values print over it', async (t) => {
  const { pdf, layout } = await renderNfePdfWithLayout(buildDanfeView(FULL), { compress: false });
  t.is(layout.pages, 2);
  const streams = streamsText(pdf);
  t.is(streams.length, 2);
  for (const s of streams) t.deepEqual(s.slice(0, 2), ['SEM VALOR FISCAL', 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO']);
});

test('renderNfePdf lays a tpImp 2 note on a landscape A4, every item once on the sheets that follow', async (t) => {
  const landscape = FULL.replace('<tpImp>1</tpImp>', '<tpImp>2</tpImp>');
  const v = buildDanfeView(landscape);
  t.is(v.tpImp, 2);
  const { pdf, layout } = await renderNfePdfWithLayout(v, { compress: false });
  t.regex(pdf.toString('latin1'), /\/MediaBox \[0 0 841\.89 595\.28\]/);
  t.notRegex(pdf.toString('latin1'), /\/MediaBox \[0 0 595\.28 841\.89\]/);
  t.is(pdfPages(pdf), layout.pages);
  // The landscape first sheet has no room left for items under the fatura and 3 volume lines.
  t.deepEqual(layout.slices[0], { start: 0, end: 0 });
  t.true(layout.pages >= 2);
  layout.slices.slice(1).forEach((sl, i) => t.is(sl.start, layout.slices[i]!.end));
  t.is(layout.slices.at(-1)!.end, 45);
  const l = lines(pdf);
  // No items grid on the first sheet: it would run into the additional data.
  t.is(l.filter((x) => x === 'DADOS DOS PRODUTOS / SERVIÇOS').length, layout.pages - 1);
  t.is(l.filter((x) => x === 'DADOS ADICIONAIS').length, 1);
  for (let i = 1; i <= 45; i++) t.is(l.filter((x) => x === `P${String(i).padStart(3, '0')}`).length, 1);
  const portrait = await renderNfePdf(buildDanfeView(FULL), { compress: false });
  t.regex(portrait.toString('latin1'), /\/MediaBox \[0 0 595\.28 841\.89\]/);
});

test('renderNfePdf of a one-item landscape note keeps the item on the first sheet', async (t) => {
  const { layout } = await renderNfePdfWithLayout(buildDanfeView(ONE.replace('<tpImp>1</tpImp>', '<tpImp>2</tpImp>')));
  t.deepEqual(layout.slices, [{ start: 0, end: 1 }]);
});

test('renderNfePdf draws the issuer logo in the emitter block on every sheet, and no image without one', async (t) => {
  const { readFileSync } = await import('node:fs');
  const logo = readFileSync(new URL('../../fixtures/logo/logo.png', import.meta.url));
  const withLogo = (await renderNfePdf(buildDanfeView(FULL), { compress: false, logo })).toString('latin1');
  t.is((withLogo.match(/\/Subtype \/Image/g) ?? []).length, 1);
  // One XObject, placed once per sheet (2 sheets): "/I1 Do".
  t.is((withLogo.match(/\/I1 Do/g) ?? []).length, 2);
  const without = (await renderNfePdf(buildDanfeView(FULL), { compress: false })).toString('latin1');
  t.false(without.includes('/Subtype /Image'));
});

test('renderNfePdf prints the CC-e given for a reprint in the complementary information, and nothing without it', async (t) => {
  const cartaCorrecao = { sequencia: 2, correcao: 'Placa do veiculo: ABC1D23', protocolo: '135260000099999', dhRegEvento: '2026-11-23T10:00:00-03:00' };
  const l = lines(await renderNfePdf(buildDanfeView(ONE, { cartaCorrecao }), { compress: false }));
  t.true(l.includes('CARTA DE CORREÇÃO Nº 2 (protocolo 135260000099999, 23/11/2026 10:00:00): Placa do veiculo: ABC1D23'));
  t.false(lines(await renderNfePdf(buildDanfeView(ONE), { compress: false })).some((x) => x.includes('CARTA DE CORREÇÃO')));
});

/** The 1-item note with `n` duplicatas (nDup 001…) and `vols` volumes (VOLUME1…). */
function crowded(n: number, vols: number, tpImp = 1): string {
  const dups = Array.from({ length: n }, (_, i) => `<dup><nDup>${String(i + 1).padStart(3, '0')}</nDup><dVenc>2027-01-01</dVenc><vDup>0.10</vDup></dup>`).join('');
  const volumes = Array.from({ length: vols }, (_, i) => `<vol><qVol>1</qVol><esp>VOLUME${i + 1}</esp></vol>`).join('');
  return ONE.replace('<tpImp>1</tpImp>', `<tpImp>${tpImp}</tpImp>`)
    .replace(/<transp>([\s\S]*?)<\/transp>/, `<transp>$1${volumes}</transp>`)
    .replace('<pag>', `<cobr>${dups}</cobr><pag>`);
}

for (const tpImp of [1, 2]) {
  test(`renderNfePdf (tpImp ${tpImp}) with 120 duplicatas and 12 volumes: the blocks stay above the additional data and the rest continues on a last sheet`, async (t) => {
    const { pdf, layout } = await renderNfePdfWithLayout(buildDanfeView(crowded(120, 12, tpImp)), { compress: false });
    t.is(pdfPages(pdf), layout.pages);
    t.is(layout.pages, layout.slices.length + 1);
    const l = lines(pdf);
    t.true(l.some((x) => x.startsWith(`(CONTINUA NA FOLHA ${layout.pages})`)));
    t.true(l.includes('DADOS ADICIONAIS (CONTINUAÇÃO)'));
    t.true(l.includes(`FOLHA ${layout.pages}/${layout.pages}`));
    const text = l.join(' ').replace(/\s+/g, ' ');
    const inGrid = l.filter((x) => /^Nº \d{3} {2}VENC\. 01\/01\/2027$/.test(x)).length;
    t.is(inGrid, tpImp === 1 ? 24 : 12);
    for (let i = inGrid + 1; i <= 120; i++) t.true(text.includes(`Nº ${String(i).padStart(3, '0')} venc. 01/01/2027 R$ 0,10`), String(i));
    for (let i = 1; i <= 12; i++) t.true(text.includes(`VOLUME${i}`), `VOLUME${i}`);
  });
}

test('renderNfePdf continues a 5000-character infCpl on its own last sheet, whole', async (t) => {
  const infCpl = Array.from({ length: 500 }, (_, i) => `linha${String(i).padStart(3, '0')}`).join(' ').slice(0, 4999);
  const xml = ONE.replace(/<infCpl>[^<]*<\/infCpl>/, `<infCpl>${infCpl}</infCpl>`);
  const { pdf, layout } = await renderNfePdfWithLayout(buildDanfeView(xml), { compress: false });
  t.is(layout.pages, 2);
  const l = lines(pdf);
  t.true(l.some((x) => x.startsWith('(CONTINUA NA FOLHA 2) linha000')));
  const continuation = l.slice(l.indexOf('DADOS ADICIONAIS (CONTINUAÇÃO)')).join(' ');
  t.true(continuation.includes('linha000 linha001'));
  t.true(continuation.includes('linha453'));
});
