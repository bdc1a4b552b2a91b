import test from 'ava';
import QRCode from 'qrcode';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { renderNfceHtml } from '../../../lib/danfe/nfce-html.js';
import { aNfce, anItem } from '../../support/checked-note-factories.js';
import { authorizedProc, PROTOCOL, signedNote } from '../../support/danfe-notes.js';
import { readSample } from '../../support/samples.js';

const NFCE = readSample('nfce/NFe_nfce_BA_hom_offline_29181033657677000156650010001654399001654399.xml');

/** Reads the QR code matrix back from the SVG path the renderer drew (runs "M x y h w v1 h-w z", 4-module quiet zone). */
function matrixOfSvg(html: string): { size: number; dark: boolean[] } {
  const svg = /<svg [^>]*class="qrcode" viewBox="0 0 (\d+) \d+"[^>]*>.*?<path d="([^"]*)"/.exec(html);
  if (!svg) throw new Error('no QR code SVG');
  const size = Number(svg[1]) - 8;
  const dark = new Array<boolean>(size * size).fill(false);
  for (const m of svg[2]!.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    const [x, y, w] = [Number(m[1]) - 4, Number(m[2]) - 4, Number(m[3])];
    for (let i = 0; i < w; i++) dark[y * size + x + i] = true;
  }
  return { size, dark };
}

test('renderNfceHtml draws a QR code that encodes exactly the qrCode URL of the stored XML', (t) => {
  const url = /<qrCode>([^<]+)<\/qrCode>/.exec(NFCE)![1]!;
  const html = renderNfceHtml(buildDanfeView(NFCE));
  const drawn = matrixOfSvg(html);
  const expected = QRCode.create(url, { errorCorrectionLevel: 'M' });
  t.is(drawn.size, expected.modules.size);
  t.deepEqual(drawn.dark, Array.from(expected.modules.data, (v) => v === 1));
});

test('renderNfceHtml of the offline fixture: issuer, items, totals, payment, urlChave, grouped key, consumer and contingency marks', (t) => {
  const html = renderNfceHtml(buildDanfeView(NFCE));
  for (const expected of [
    'PMZ CENTRO NORTE S/A', 'CNPJ: 33.657.677/0001-56', 'Documento Auxiliar da Nota Fiscal de Consumidor Eletrônica',
    '10015300336 (153 - C2075) -CILINDRO MESTRE DUPLO UN', '96,22', 'Valor a pagar R$', '150,00', 'Cartão de Débito',
    'http://hinternet.sefaz.ba.gov.br/nfce/consulta', '2918 1033 6576 7700 0156 6500 1000 1654 3990 0165 4399',
    'CONSUMIDOR NÃO IDENTIFICADO', 'NFC-e nº 000.165.439', 'Série 001', '01/10/2018 07:28:14',
    'EMITIDA EM CONTINGÊNCIA', 'Pendente de autorização', 'EMITIDA EM AMBIENTE DE HOMOLOGAÇÃO – SEM VALOR FISCAL',
    'Tributos Totais Incidentes (Lei Federal 12.741/2012): R$ 35,75',
  ]) t.true(html.includes(expected), expected);
  t.false(html.includes('Protocolo de autorização'));
});

test('renderNfceHtml of an authorized NFC-e prints its protocol and change, with no contingency text', (t) => {
  const note = aNfce([anItem({ cfop: '5102', descricao: `Bala <doce> & "azeda"` })], { pagamentos: [{ forma: '01', valor: 30 }], troco: 9 });
  // Production: homologation replaces the first description with its fixed text.
  const signed = signedNote(note, { tpAmb: 1 });
  const html = renderNfceHtml(buildDanfeView(authorizedProc(signed, 1)));
  t.true(html.includes(`Protocolo de autorização: ${PROTOCOL}`));
  t.true(html.includes('Data de autorização: 22/11/2026 17:40:05'));
  t.true(html.includes('Troco R$'));
  t.true(html.includes('9,00'));
  t.true(html.includes('Bala &lt;doce&gt; &amp; &quot;azeda&quot;'));
  t.false(html.includes('EMITIDA EM CONTINGÊNCIA'));
  t.deepEqual(matrixOfSvg(html).dark, Array.from(QRCode.create(signed.qrCode!.qrCode, { errorCorrectionLevel: 'M' }).modules.data, (v) => v === 1));
});

test('renderNfceHtml marks a canceled NFC-e CANCELADA', (t) => {
  const html = renderNfceHtml(buildDanfeView(authorizedProc(signedNote(aNfce())), { cancelada: true }));
  t.regex(html, /<p class="[^"]*mark[^"]*">CANCELADA<\/p>/);
});
