import test from 'ava';
import QRCode from 'qrcode';
import { qrMatrix, qrRuns, qrSvg } from '../../../lib/danfe/qrcode.js';

const URL_ = 'https://www.homologacao.nfce.fazenda.sp.gov.br/NFCeConsultaPublica/Paginas/ConsultaQRCode.aspx?p=35261112345678000195650010000012341876543210|2|2|1|0A1B2C3D4E5F60718293A4B5C6D7E8F901234567';

test('qrMatrix is the qrcode library matrix of exactly the given text', (t) => {
  const m = qrMatrix(URL_);
  const ref = QRCode.create(URL_, { errorCorrectionLevel: 'M' });
  t.is(m.size, ref.modules.size);
  t.deepEqual(m.dark, Array.from(ref.modules.data, (v) => v === 1));
  t.notDeepEqual(qrMatrix(`${URL_}0`).dark, m.dark);
});

test('qrRuns cover every dark module once', (t) => {
  const m = qrMatrix(URL_);
  const cells = qrRuns(m).reduce((a, r) => a + r.w, 0);
  t.is(cells, m.dark.filter(Boolean).length);
});

test('qrSvg is deterministic for the same text and differs for another', (t) => {
  t.is(qrSvg(URL_), qrSvg(URL_));
  t.not(qrSvg(URL_), qrSvg(URL_.replace('|2|2|', '|2|1|')));
});
