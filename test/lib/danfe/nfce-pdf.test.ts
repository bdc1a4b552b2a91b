import test from 'ava';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { renderNfcePdf } from '../../../lib/danfe/nfce-pdf.js';
import { qrMatrix, qrRuns } from '../../../lib/danfe/qrcode.js';
import { aNfce } from '../../support/checked-note-factories.js';
import { authorizedProc, PROTOCOL, pdfPages, pdfText, signedNote } from '../../support/danfe-notes.js';
import { readSample } from '../../support/samples.js';

const NFCE = readSample('nfce/NFe_nfce_BA_hom_offline_29181033657677000156650010001654399001654399.xml');

test('renderNfcePdf gives one 80 mm sheet with the receipt texts and contingency marks', async (t) => {
  const pdf = await renderNfcePdf(buildDanfeView(NFCE), { compress: false });
  t.is(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  t.is(pdfPages(pdf), 1);
  t.regex(pdf.toString('latin1'), /\/MediaBox \[0 0 226\.77\d* [\d.]+\]/);
  const text = pdfText(pdf);
  for (const expected of ['PMZ CENTRO NORTE S/A', 'EMITIDA EM CONTINGÊNCIA', 'Pendente de autorização', 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO', 'SEM VALOR',
    '2918 1033 6576 7700 0156 6500 1000 1654 3990 0165 4399', 'http://hinternet.sefaz.ba.gov.br/nfce/consulta', 'CONSUMIDOR NÃO IDENTIFICADO', '150,00']) {
    t.true(text.includes(expected), expected);
  }
});

test('renderNfcePdf draws the QR code of the stored URL: one filled rectangle per run of dark modules', async (t) => {
  const url = /<qrCode>([^<]+)<\/qrCode>/.exec(NFCE)![1]!;
  const pdf = (await renderNfcePdf(buildDanfeView(NFCE), { compress: false })).toString('latin1');
  const runs = qrRuns(qrMatrix(url)).length;
  // The QR code is the one path of `re` operators filled at once.
  const paths = pdf.split(/\nf\n/).map((chunk) => (chunk.match(/ re\n/g) ?? []).length);
  t.true(paths.includes(runs), `${runs} runs; paths: ${paths.filter((n) => n > 10).join(',')}`);
});

test('renderNfcePdf of an authorized NFC-e prints the protocol and no contingency mark', async (t) => {
  const text = pdfText(await renderNfcePdf(buildDanfeView(authorizedProc(signedNote(aNfce()))), { compress: false }));
  t.true(text.includes(`Protocolo de autorização: ${PROTOCOL}`));
  t.false(text.includes('CONTINGÊNCIA'));
});
