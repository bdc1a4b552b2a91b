import test from 'ava';
import { gzipSync } from 'node:zlib';
import { fromGzipBase64, MalformedPayloadError, toGzipBase64 } from '../../../lib/sefin/payload.js';

test('toGzipBase64 and fromGzipBase64 round-trip UTF-8 XML', (t) => {
  const xml = '<DPS xmlns="http://www.sped.fazenda.gov.br/nfse"><xDescServ>Manutenção · ção</xDescServ></DPS>';
  const b64 = toGzipBase64(xml);
  t.regex(b64, /^[A-Za-z0-9+/]+=*$/);
  t.is(gzipSync(Buffer.from(xml)).subarray(0, 2).toString('hex'), Buffer.from(b64, 'base64').subarray(0, 2).toString('hex'));
  t.is(fromGzipBase64(b64), xml);
});

test('fromGzipBase64 tells base64 failures (E1225) from gzip failures (E1226)', (t) => {
  t.is(t.throws(() => fromGzipBase64('@@@'), { instanceOf: MalformedPayloadError })!.stage, 'base64');
  t.is(t.throws(() => fromGzipBase64(''), { instanceOf: MalformedPayloadError })!.stage, 'base64');
  t.is(t.throws(() => fromGzipBase64(Buffer.from('<DPS/>').toString('base64')), { instanceOf: MalformedPayloadError })!.stage, 'gzip');
});
