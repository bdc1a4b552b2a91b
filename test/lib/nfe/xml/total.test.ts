import test from 'ava';
import { buildTotal } from '../../../../lib/nfe/xml/total.js';
import { aNfe, anItem, ibsCbsFor, totalsOf } from '../../../support/checked-note-factories.js';

test('buildTotal writes ICMSTot and vTotTrib only when the note carries the approximate tax', (t) => {
  const totals = { ...totalsOf(aNfe()), vTotTrib: 512n };
  t.false(buildTotal(totals, false).includes('vTotTrib'));
  t.true(buildTotal(totals, true).includes('<vNF>21.00</vNF><vTotTrib>5.12</vTotTrib></ICMSTot>'));
});

test('buildTotal writes monofasic totals (qBCMono with 2 decimals) only when present and IBSCBSTot with IBS/CBS', (t) => {
  const totals = totalsOf(aNfe([anItem({ ibsCbsResolved: ibsCbsFor(2100n) })]));
  totals.qBCMono = 1_000_055n; totals.vICMSMono = 14_700n;
  const xml = buildTotal(totals, false);
  t.true(xml.includes('<vFCPSTRet>0.00</vFCPSTRet><qBCMono>100.01</qBCMono><vICMSMono>147.00</vICMSMono><vProd>'));
  t.true(xml.includes('<IBSCBSTot><vBCIBSCBS>21.00</vBCIBSCBS><gIBS><gIBSUF><vDif>0.00</vDif><vDevTrib>0.00</vDevTrib><vIBSUF>0.02</vIBSUF></gIBSUF>'));
});
