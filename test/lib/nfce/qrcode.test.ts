import test from 'ava';
import {
  assertQrCodeFormat, buildNfceQrCode, nfceQrCodeUrl, nfceUrlChave, qrCodeOfflineParams, qrCodeOnlineParams,
} from '../../../lib/nfce/qrcode.js';
import { readSample } from '../../support/samples.js';

const vectors = JSON.parse(readSample('vectors/check_digits_and_qrcode.json'));
const [online, offline] = vectors.nfce_qrcode_v2.computed_vectors;
const csc = { csc: online.csc, cscId: '000001' };

test('qrCodeOnlineParams matches the online regression anchor (public test CSC)', (t) => {
  const key = online.expected_p.slice(0, 44);
  t.is(qrCodeOnlineParams(key, 2, csc), online.expected_p);
});

test('qrCodeOfflineParams matches the offline regression anchor, digVal as hex of the DigestValue', (t) => {
  const real = vectors.nfce_qrcode_v2.real_qrcodes_structure_only[1];
  const key = offline.expected_p.slice(0, 44);
  const p = qrCodeOfflineParams(key, 2, csc, { dhEmi: '2018-10-01T10:00:00-03:00', vNF: 15000n, digestValue: real.DigestValue });
  t.is(p, offline.expected_p);
});

test('the real QR strings of the vectors file pass the XSD format check', (t) => {
  for (const r of vectors.nfce_qrcode_v2.real_qrcodes_structure_only) t.notThrows(() => assertQrCodeFormat(r.qrCode));
});

test('assertQrCodeFormat refuses a QR Code outside the layout pattern (QRCODE_FORA_DO_PADRAO)', (t) => {
  const good = `http://www.fazenda.pr.gov.br/nfce/qrcode?p=${online.expected_p}`;
  t.notThrows(() => assertQrCodeFormat(good));
  for (const bad of [good.replace('|2|2|', '|3|2|'), good.toLowerCase().replace('http://', 'ftp://'), good.slice(0, -1), good.replace('|1|', '|01|')]) {
    const err = t.throws(() => assertQrCodeFormat(bad));
    t.is((err as any).type, 'QRCODE_FORA_DO_PADRAO');
  }
});

test('nfceQrCodeUrl and nfceUrlChave come from the per-UF tables by environment', (t) => {
  t.is(nfceQrCodeUrl('BA', 2), 'http://hnfe.sefaz.ba.gov.br/servicos/nfce/qrcode.aspx');
  t.is(nfceQrCodeUrl('BA', 1), 'http://nfe.sefaz.ba.gov.br/servicos/nfce/qrcode.aspx');
  t.is(nfceUrlChave('SP', 1), 'https://www.nfce.fazenda.sp.gov.br/NFCeConsultaPublica');
  t.is(nfceUrlChave('SP', 2), 'https://www.homologacao.nfce.fazenda.sp.gov.br/NFCeConsultaPublica');
  const err = t.throws(() => nfceQrCodeUrl('XX', 1));
  t.is((err as any).type, 'UF_SEM_URL_NFCE');
});

test('every UF of the URL tables yields a QR Code that passes the format check', (t) => {
  const key = '35261112345678000195650010000012341876543218';
  for (const uf of ['AC', 'AL', 'AM', 'AP', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MG', 'MS', 'MT', 'PA', 'PB', 'PE', 'PI', 'PR', 'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO']) {
    for (const tpAmb of [1, 2] as const) {
      t.notThrows(() => buildNfceQrCode({ accessKey: key, uf, tpAmb, tpEmis: 1, ...csc }), `${uf} ${tpAmb}`);
    }
  }
});

test('buildNfceQrCode picks the offline form for tpEmis 9 and refuses without a CSC', (t) => {
  const key = '35261112345678000195650010000012349876543211';
  const r = buildNfceQrCode({ accessKey: key, uf: 'SP', tpAmb: 2, tpEmis: 9, ...csc, offline: { dhEmi: '2026-11-05T10:00:00-03:00', vNF: 1050n, digestValue: 'm9ZrQTKMxv7A1Blnf/nmNGVX+N8=' } });
  t.regex(r.qrCode, /\?p=\d{44}\|2\|2\|05\|10\.50\|[0-9a-f]{56}\|1\|[0-9A-F]{40}$/);
  const err = t.throws(() => buildNfceQrCode({ accessKey: key, uf: 'SP', tpAmb: 2, tpEmis: 1, csc: null, cscId: '1' }));
  t.is((err as any).type, 'CSC_AUSENTE');
});
