import test from 'ava';
import { checkPartilha, expectedInterPart } from '../../../../lib/sefaz/simulator/partilha.js';
import type { NfeFacts, PartilhaItemFacts } from '../../../../lib/sefaz/simulator/facts.js';

/** SP to a consumer's CPF in RJ (12%), one national item of R$ 100 at 20% + 2% FECP, dhEmi in 2026. */
const item = (over: Partial<PartilhaItemFacts> = {}): PartilhaItemFacts => ({
  nItem: '1', cfop: '6102', orig: '0', pICMSInter: '12.00', pICMSInterPart: '100.00',
  vFCPUFDest: '2.00', vICMSUFDest: '8.00', vICMSUFRemet: '0.00', ...over,
});
const facts = (items: PartilhaItemFacts[] = [item()], over: Partial<NfeFacts> = {}): NfeFacts => ({
  id: '', cUF: '35', cNF: '', mod: '55', serie: '1', nNF: '1', dhEmi: '2026-11-25T10:00:00-03:00', tpEmis: '1', dhCont: null, xJust: null, cDV: '', tpAmb: '2',
  idDest: '2', indFinal: '1', cMunFG: '3550308', emitCnpj: '11222333000181', emit: { ie: '110042490114', uf: 'SP', cMun: '3550308' },
  dest: { cnpj: null, cpf: '52998224725', ie: null, indIEDest: '9', uf: 'RJ', cMun: '3304557' }, indIEDest: '9',
  itemsWithoutIcmsUfDest: [], itemsWithIcmsUfDest: items.map((i) => i.nItem), hasIssqn: false, entregaUf: null, retiradaUf: null,
  tpNF: '1', finNFe: '1', refNFe: [],
  partilha: {
    items,
    totals: {
      vFCPUFDest: items.reduce((s, i) => s + Number(i.vFCPUFDest ?? 0), 0).toFixed(2),
      vICMSUFDest: items.reduce((s, i) => s + Number(i.vICMSUFDest), 0).toFixed(2),
      vICMSUFRemet: items.reduce((s, i) => s + Number(i.vICMSUFRemet), 0).toFixed(2),
    },
  },
  additionalInfo: '', hasInfRespTec: true, digestValue: null, ...over,
});

test('checkPartilha accepts the e-commerce sale SP → RJ at 12%, an imported item at 4% and SP → BA at 7%', (t) => {
  t.is(checkPartilha(facts()), null);
  t.is(checkPartilha(facts([item(), item({ nItem: '2', orig: '1', pICMSInter: '4.00' })])), null);
  t.is(checkPartilha(facts([item({ pICMSInter: '7.00' })], { dest: { cnpj: null, cpf: '52998224725', ie: null, indIEDest: '9', uf: 'BA', cMun: '2927408' } })), null);
  t.is(checkPartilha(facts([item({ pICMSInter: '7.0000', pICMSInterPart: '100.0000' })], { dest: { cnpj: null, cpf: '52998224725', ie: null, indIEDest: '9', uf: 'ES', cMun: '3205309' } })), null, '4-decimal rates, ES gets 7%');
  t.is(checkPartilha(facts([], {})), null, 'no group, no totals to add');
  t.is(checkPartilha(facts([item({ pICMSInter: '4.00' })], { mod: '65' })), null, 'NFC-e: 807 is not a partilha rule');
});

test('checkPartilha: 697 for 4% on a national item and for 7%/12% on an imported one (NA09-10, NA09-20)', (t) => {
  t.deepEqual(checkPartilha(facts([item(), item({ nItem: '2', pICMSInter: '4.00' })])), { cStat: 697, nItem: '2' });
  t.deepEqual(checkPartilha(facts([item({ orig: '8' })])), { cStat: 697, nItem: '1' });
  t.is(checkPartilha(facts([item({ orig: '5' })])), null, 'origin 5 (import content ≤ 40%) is national');
});

test('checkPartilha: 698 for a rate that is not the UFs\' on a normal sale (NA09-30), with its exceptions', (t) => {
  t.deepEqual(checkPartilha(facts([item({ pICMSInter: '7.00' })])), { cStat: 698, nItem: '1' }, 'SP → RJ is 12%');
  const toBahia = { dest: { cnpj: null, cpf: '52998224725', ie: null, indIEDest: '9', uf: 'BA', cMun: '2927408' } };
  t.deepEqual(checkPartilha(facts([item()], toBahia)), { cStat: 698, nItem: '1' }, 'SP → BA is 7%');
  t.deepEqual(checkPartilha(facts([item({ pICMSInter: '7.00' })], { emit: { ie: '110042490114', uf: 'BA', cMun: '2927408' }, ...toBahia, dest: { ...toBahia.dest, uf: 'SP', cMun: '3550308' } })), { cStat: 698, nItem: '1' }, 'BA → SP is 12%');
  t.is(checkPartilha(facts([item({ pICMSInter: '7.00' })], { finNFe: '4', refNFe: ['35261111222333000181550010000000011000000010'] })), null, 'a return (finNFe 4)');
  t.is(checkPartilha(facts([item({ pICMSInter: '7.00' })], { tpNF: '0' })), null, 'an incoming note');
  t.is(checkPartilha(facts([item({ pICMSInter: '7.00', cfop: '6916' })])), null, 'a return CFOP (Anexo XIII.04)');
  t.is(checkPartilha(facts([item({ pICMSInter: '7.00' })], { entregaUf: 'MG' })), null, 'exceção 3: delivered outside the emitter\'s UF');
  t.deepEqual(checkPartilha(facts([item({ pICMSInter: '7.00' })], { entregaUf: 'SP' })), { cStat: 698, nItem: '1' }, 'delivered in the emitter\'s own UF');
  t.is(checkPartilha(facts([item({ pICMSInter: '7.00' })], { retiradaUf: 'MG' })), null, 'exceção 4: picked up outside the recipient\'s UF');
});

test('checkPartilha: 699 for a share that is not the year\'s (NA11-10), the reference\'s year on a return', (t) => {
  t.deepEqual(checkPartilha(facts([item({ pICMSInterPart: '80.00' })])), { cStat: 699, nItem: '1' });
  const ref2018 = ['35180511222333000181550010000000011000000010'];
  t.is(checkPartilha(facts([item({ pICMSInterPart: '80.00' })], { finNFe: '4', refNFe: ref2018 })), null, 'returning a 2018 note: 80%');
  t.deepEqual(checkPartilha(facts([item()], { finNFe: '4', refNFe: ref2018 })), { cStat: 699, nItem: '1' });
  t.is(checkPartilha(facts([item({ pICMSInterPart: '40.00' })], { finNFe: '4' })), null, 'no reference, no year to hold it to');
  t.deepEqual([2015, 2016, 2017, 2018, 2019, 2026].map(expectedInterPart), [null, 40, 60, 80, 100, 100]);
});

test('checkPartilha: 798, 799 and 800 when ICMSTot\'s partilha totals are not the items\' sums (W04c/W04e/W04g)', (t) => {
  const base = facts([item(), item({ nItem: '2' })]);
  const withTotals = (totals: Partial<NfeFacts['partilha']['totals']>) => ({ ...base, partilha: { ...base.partilha, totals: { ...base.partilha.totals, ...totals } } });
  t.is(checkPartilha(base), null);
  t.deepEqual(checkPartilha(withTotals({ vFCPUFDest: '2.00' })), { cStat: 798 });
  t.deepEqual(checkPartilha(withTotals({ vICMSUFDest: '16.01' })), { cStat: 799 });
  t.deepEqual(checkPartilha(withTotals({ vICMSUFRemet: '0.01' })), { cStat: 800 });
  t.deepEqual(checkPartilha(withTotals({ vICMSUFDest: null })), { cStat: 799 }, 'an absent total counts as zero');
});
