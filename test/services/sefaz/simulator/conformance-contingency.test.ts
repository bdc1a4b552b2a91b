import test from 'ava';
import type { ExecutionContext } from 'ava';
import { cstatText } from '../../../../lib/sefaz/cstat.js';
import type { SampleOptions } from '../../../support/sample-nfe.js';
import { aNote, enviNFe, envelope12, lastTag, resultOf, startConformanceSim, tag, type ConformanceSim } from '../../../support/simulator-conformance.js';

/**
 * Issue 19, contingency rules: tpEmis against the model and the authorizer addressed, and the entry
 * into contingency (dhCont/xJust), each code with the table's verbatim text and the retEnviNFe
 * valid against the XSD. SVC is addressed by the simulator's alias /ws/SVCAN|SVCRS/…: at the real
 * shared addresses (SVAN's, SVRS's) the simulator means the normal authorizer.
 */
let c: ConformanceSim;
test.before(async () => { c = await startConformanceSim(); });
test.after.always(async () => { await c?.stop(); });

const SP = { path: '/ws/nfeautorizacao4.asmx', host: 'homologacao.nfe.fazenda.sp.gov.br' };
const SVCAN = { path: '/ws/SVCAN/NFeAutorizacao4.asmx', host: undefined };

async function answer(t: ExecutionContext, o: Partial<SampleOptions>, target: { path: string; host: string | undefined }, cStat: number) {
  const note = aNote(c, o);
  const r = resultOf(await c.post(target.path, envelope12('NFeAutorizacao4', enviNFe(note.xml)), { host: target.host }), 'retEnviNFe');
  t.deepEqual(r.xsd, { valid: true, errors: [] });
  t.is(tag(r.xml, 'cStat'), '104');
  t.is(lastTag(r.xml, 'cStat'), String(cStat));
  t.is(lastTag(r.xml, 'xMotivo'), cstatText(cStat));
}

test('an SVC-AN note (tpEmis 6) is authorized at SVC-AN', (t) => answer(t, { tpEmis: 6 }, SVCAN, 100));
test('570: tpEmis 6 sent to the UF\'s own authorizer', (t) => answer(t, { tpEmis: 6 }, SP, 570));
test('713: tpEmis 7 (SVC-RS) sent to SVC-AN', (t) => answer(t, { tpEmis: 7 }, SVCAN, 713));
test('783: an NFC-e sent to SVC', (t) => answer(t, { tpEmis: 6, model: '65' }, SVCAN, 783));
test('711: an NF-e in offline contingency (tpEmis 9)', (t) => answer(t, { tpEmis: 9 }, SP, 711));
test('556: dhCont/xJust on a normal emission', (t) => answer(t, { contingencyEntry: { dhCont: '2026-01-01T10:00:00-03:00', xJust: 'Falha de comunicacao com a SEFAZ' } }, SP, 556));
test('557: an offline NFC-e without the entry into contingency', (t) => answer(t, { tpEmis: 9, model: '65', contingencyEntry: null }, SP, 557));
test('558: an entry into contingency after the reception', (t) => {
  const later = new Date(c.clock.now.getTime() + 60 * 60_000 - 3 * 3_600_000).toISOString().slice(0, 19) + '-03:00';
  return answer(t, { tpEmis: 9, model: '65', contingencyEntry: { dhCont: later, xJust: 'Falha de comunicacao com a SEFAZ' } }, SP, 558);
});
