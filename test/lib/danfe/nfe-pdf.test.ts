import test from 'ava';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { renderNfePdf, renderNfePdfWithLayout } from '../../../lib/danfe/nfe-pdf.js';
import { groupAccessKey } from '../../../lib/danfe/format.js';
import { manyItemsProc, pdfPages, pdfText } from '../../support/danfe-notes.js';
import { readSample } from '../../support/samples.js';

const RS = readSample('nfe/procNFe_RS_hom_43180906929383000163550010000000261000010301.xml');
const SP = readSample('nfe/procNFe_SP_prod_35180834128745000152550010000476051695511860.xml');

test('renderNfePdf gives a one-sheet PDF with the DANFE header, grouped key, protocol and totals', async (t) => {
  const pdf = await renderNfePdf(buildDanfeView(RS), { compress: false });
  t.is(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  t.true(pdf.subarray(-6).toString('latin1').includes('%%EOF'));
  t.is(pdfPages(pdf), 1);
  const text = pdfText(pdf);
  for (const expected of ['DANFE', '4318 0906 9293 8300 0163 5500 1000 0000 2610 0001 0301', '143180006932433 - 25/09/2018 16:21:05', 'Nº 000.000.026', 'FOLHA 1/1', '500,00', 'UM PRODUTO TESTE QUALQUER', 'SEM VALOR FISCAL']) {
    t.true(text.includes(expected), expected);
  }
  t.false(text.includes('CANCELADA'));
});

test('renderNfePdf marks a canceled note CANCELADA and prints no homologation mark in production', async (t) => {
  const text = pdfText(await renderNfePdf(buildDanfeView(SP, { cancelada: true }), { compress: false }));
  t.true(text.includes('CANCELADA'));
  t.false(text.includes('SEM VALOR FISCAL'));
});

test('renderNfePdf renders the same bytes for the same note (no clock in the document)', async (t) => {
  const v = buildDanfeView(RS);
  t.deepEqual(await renderNfePdf(v), await renderNfePdf(v));
});

test('renderNfePdf of a 990-item note: one PDF page per sheet, each with its header, every item exactly once', async (t) => {
  const v = buildDanfeView(manyItemsProc(990));
  const { pdf, layout } = await renderNfePdfWithLayout(v, { compress: false });
  t.true(layout.pages > 5, String(layout.pages));
  t.is(pdfPages(pdf), layout.pages);
  t.is(layout.slices[0]!.start, 0);
  t.is(layout.slices.at(-1)!.end, 990);
  layout.slices.slice(1).forEach((s, i) => t.is(s.start, layout.slices[i]!.end));
  const text = pdfText(pdf);
  for (let i = 1; i <= layout.pages; i++) t.true(text.includes(`FOLHA ${i}/${layout.pages}`));
  t.is(text.split(groupAccessKey(v.accessKey)).length - 1, layout.pages);
  const lines = text.split('\n');
  const seen = new Map<string, number>();
  for (const l of lines) if (/^C\d{4}$/.test(l)) seen.set(l, (seen.get(l) ?? 0) + 1);
  t.is(seen.size, 990);
  t.true([...seen.values()].every((n) => n === 1));
});
