import test from 'ava';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { renderNfePdf } from '../../../lib/danfe/nfe-pdf.js';
import { LABEL_SIZE, renderNfeSimplificadoPdf } from '../../../lib/danfe/nfe-simplificado-pdf.js';
import { groupAccessKey } from '../../../lib/danfe/format.js';
import { pdfPages, pdfText } from '../../support/danfe-notes.js';
import { fullProc, oneItemProc } from '../../support/danfe-golden-notes.js';

const simplificado = (xml: string): string => xml.replace('<tpImp>1</tpImp>', '<tpImp>3</tpImp>');

test('renderNfePdf prints a tpImp 3 note as the one-page 100 × 150 mm DANFE Simplificado – Etiqueta', async (t) => {
  const v = buildDanfeView(simplificado(oneItemProc()));
  t.is(v.tpImp, 3);
  const pdf = await renderNfePdf(v, { compress: false });
  t.deepEqual(pdf, await renderNfeSimplificadoPdf(v, { compress: false }));
  t.is(pdfPages(pdf), 1);
  const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.toString('latin1'))!;
  // 100 × 150 mm in points (72 / 25.4 per mm), to pdfkit's printed precision.
  t.deepEqual([Number(box[1]).toFixed(2), Number(box[2]).toFixed(2)], ['283.46', '425.20']);
  t.deepEqual(LABEL_SIZE.map((n) => n.toFixed(2)), ['283.46', '425.20']);
});

test('renderNfeSimplificadoPdf prints the NT 2020.004 mandatory fields of issuer, recipient, note and protocol', async (t) => {
  const v = buildDanfeView(simplificado(oneItemProc()));
  const lines = pdfText(await renderNfeSimplificadoPdf(v, { compress: false })).split('\n');
  for (const s of [
    'DANFE SIMPLIFICADO - ETIQUETA', groupAccessKey(v.accessKey), '135260000012345 - 22/11/2026 17:40:05', '1 - SAÍDA', '000.001.234', '001', '22/11/2026',
    'COMERCIO DE TESTES LTDA', '12.345.678/0001-95', '123456789012', 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL', '98.765.432/0001-98', '987654321098',
    'R$ 21,00', 'SEM VALOR FISCAL',
  ]) t.true(lines.includes(s), s);
  t.is(lines.filter((l) => l === 'SP').length, 2);
});

test('renderNfeSimplificadoPdf lists the items the label holds and counts the rest', async (t) => {
  const lines = pdfText(await renderNfeSimplificadoPdf(buildDanfeView(simplificado(fullProc())), { compress: false })).split('\n');
  const items = lines.filter((l) => /^P\d{3} · /.test(l));
  t.true(items.length > 10);
  t.is(items[0], 'P001 · Produto 1 · 2,0000 UN · 22,00');
  t.true(lines.includes(`+ ${45 - items.length} itens: consulte a NF-e pela chave de acesso`));
});
