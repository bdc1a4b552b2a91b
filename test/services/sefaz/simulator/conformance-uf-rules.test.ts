import test from 'ava';
import { cstatText } from '../../../../lib/sefaz/cstat.js';
import { createA1 } from '../../../support/certificates.js';
import {
  aNote, CNPJ, enviNFe, envelope12, envEvento, lastTag, resultOf, startConformanceSim, tag, type ConformanceSim,
} from '../../../support/simulator-conformance.js';

/**
 * Issue 19, per-UF data (data/sefaz/simulator-uf-rules.json) over the wire: a note of MT at MT's
 * own real path, cancelled late there (155, MT's cancelamento extemporaneo), and a signing
 * certificate not yet valid (291). The clock moves: serial.
 */
let c: ConformanceSim;
test.before(async () => { c = await startConformanceSim(); });
test.after.always(async () => { await c?.stop(); });

const HOUR = 3_600_000;
const MT_HOST = 'homologacao.sefaz.mt.gov.br';
/** Cuiabá, and an IE whose MT check digit holds (lib/issuer/inscricao-estadual.ts). */
const MT = { cUF: '51', uf: 'MT', cMun: '5103403', ie: '01310000007' };

test.serial('an MT note is authorized at MT\'s own path with MT\'s nProt, and cancelled 30 h later with 155', async (t) => {
  const note = aNote(c, { emitter: MT });
  const auth = resultOf(await c.post('/nfews/v2/services/NfeAutorizacao4', envelope12('NFeAutorizacao4', enviNFe(note.xml)), { host: MT_HOST }), 'retEnviNFe');
  t.deepEqual(auth.xsd, { valid: true, errors: [] });
  t.is(tag(auth.xml, 'cUF'), '51');
  t.is(lastTag(auth.xml, 'cStat'), '100', auth.xml);
  const nProt = lastTag(auth.xml, 'nProt')!;
  t.regex(nProt, /^151\d{12}$/, 'first digit 1: the UF\'s own authorizer, then its cUF');

  const saved = c.clock.now;
  c.clock.now = new Date(saved.getTime() + 30 * HOUR);
  try {
    const cancel = await envEvento(c, { accessKey: note.accessKey, cOrgao: '51', detail: { type: 'cancelamento', protocol: nProt, justificativa: 'Pedido cancelado pelo cliente' } });
    const r = resultOf(await c.post('/nfews/v2/services/RecepcaoEvento4', envelope12('NFeRecepcaoEvento4', cancel), { host: MT_HOST }), 'retEnvEvento');
    t.deepEqual(r.xsd, { valid: true, errors: [] });
    t.is(lastTag(r.xml, 'cStat'), '155');
    t.is(lastTag(r.xml, 'xMotivo'), 'Cancelamento homologado fora de prazo');
    t.is(lastTag(r.xml, 'xMotivo'), cstatText(155));
    t.regex(lastTag(r.xml, 'nProt')!, /^151\d{12}$/);
  } finally {
    c.clock.now = saved;
  }
});

test.serial('the same cancellation of an SP note 30 h later is 220 (SP follows the default)', async (t) => {
  const note = aNote(c);
  const auth = resultOf(await c.post('/ws/nfeautorizacao4.asmx', envelope12('NFeAutorizacao4', enviNFe(note.xml)), { host: 'homologacao.nfe.fazenda.sp.gov.br' }), 'retEnviNFe');
  const saved = c.clock.now;
  c.clock.now = new Date(saved.getTime() + 30 * HOUR);
  try {
    const cancel = await envEvento(c, { accessKey: note.accessKey, detail: { type: 'cancelamento', protocol: lastTag(auth.xml, 'nProt')!, justificativa: 'Pedido cancelado pelo cliente' } });
    const r = resultOf(await c.post('/ws/nferecepcaoevento4.asmx', envelope12('NFeRecepcaoEvento4', cancel), { host: 'homologacao.nfe.fazenda.sp.gov.br' }), 'retEnvEvento');
    t.is(lastTag(r.xml, 'cStat'), '220');
    t.is(lastTag(r.xml, 'xMotivo'), cstatText(220));
  } finally {
    c.clock.now = saved;
  }
});

test.serial('291: a signing certificate not yet valid', async (t) => {
  const future = createA1(c.ca, { cnpj: CNPJ, notBefore: new Date(Date.now() + 24 * HOUR), notAfter: new Date(Date.now() + 400 * 24 * HOUR) });
  const note = aNote(c, { emitter: MT }, future);
  const r = resultOf(await c.post('/nfews/v2/services/NfeAutorizacao4', envelope12('NFeAutorizacao4', enviNFe(note.xml)), { host: MT_HOST }), 'retEnviNFe');
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(tag(r.xml, 'cStat'), '104');
  t.is(lastTag(r.xml, 'cStat'), '291');
  t.is(lastTag(r.xml, 'xMotivo'), 'Rejeição: Certificado Assinatura Data Validade');
  t.is(lastTag(r.xml, 'nProt'), null);
});
