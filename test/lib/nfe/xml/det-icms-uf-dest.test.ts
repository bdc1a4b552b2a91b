import test from 'ava';
import { buildImposto } from '../../../../lib/nfe/xml/det.js';
import { buildIcmsUfDest } from '../../../../lib/nfe/xml/det-icms-uf-dest.js';
import { buildTotal } from '../../../../lib/nfe/xml/total.js';
import { toXml } from '../../../../lib/xml/writer.js';
import type { ResolvedIcmsUfDest } from '../../../../lib/nfe/types.js';
import { aNfe, anItem, totalsOf } from '../../../support/checked-note-factories.js';

const RJ: ResolvedIcmsUfDest = {
  vBCUFDest: 10000n, fcp: { vBCFCPUFDest: 10000n, pFCPUFDest: '2.00', vFCPUFDest: 200n },
  pICMSUFDest: '20.00', pICMSInter: '12.00', pICMSInterPart: '100.00', vICMSUFDest: 800n, vICMSUFRemet: 0n,
};

test('buildIcmsUfDest writes the NT 2015.003 fields in XSD order, FCP between the rates as the sequence puts it', (t) => {
  t.is(toXml(buildIcmsUfDest(RJ)), '<ICMSUFDest><vBCUFDest>100.00</vBCUFDest><vBCFCPUFDest>100.00</vBCFCPUFDest><pFCPUFDest>2.00</pFCPUFDest>'
    + '<pICMSUFDest>20.00</pICMSUFDest><pICMSInter>12.00</pICMSInter><pICMSInterPart>100.00</pICMSInterPart>'
    + '<vFCPUFDest>2.00</vFCPUFDest><vICMSUFDest>8.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest>');
});

test('buildIcmsUfDest leaves the optional FCP fields out when the destination charges no FCP', (t) => {
  const { fcp: _fcp, ...noFcp } = RJ;
  t.is(toXml(buildIcmsUfDest(noFcp)), '<ICMSUFDest><vBCUFDest>100.00</vBCUFDest><pICMSUFDest>20.00</pICMSUFDest><pICMSInter>12.00</pICMSInter>'
    + '<pICMSInterPart>100.00</pICMSInterPart><vICMSUFDest>8.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest>');
});

test('buildImposto puts ICMSUFDest after COFINS', (t) => {
  t.regex(toXml(buildImposto({ ...anItem(), icmsUfDestResolved: RJ })), /<\/COFINS><ICMSUFDest>.*<\/ICMSUFDest><\/imposto>$/);
  t.notRegex(toXml(buildImposto(anItem())), /ICMSUFDest/);
});

test('buildTotal writes the partilha totals after vICMSDeson only when an item carries the group', (t) => {
  const note = aNfe([anItem({ icmsUfDestResolved: RJ }), anItem({ icmsUfDestResolved: { ...RJ, vICMSUFDest: 267n } })]);
  t.true(buildTotal(totalsOf(note), false).includes('<vICMSDeson>0.00</vICMSDeson><vFCPUFDest>4.00</vFCPUFDest><vICMSUFDest>10.67</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet><vFCP>'));
  t.false(buildTotal(totalsOf(aNfe()), false).includes('UFDest'));
});
