import test from 'ava';
import { checkIdentifiers } from '../../../../lib/sefaz/simulator/recipient.js';
import type { NfeFacts } from '../../../../lib/sefaz/simulator/facts.js';

const facts = (over: Partial<NfeFacts> = {}, dest: Partial<NonNullable<NfeFacts['dest']>> = {}): NfeFacts => ({
  id: '', cUF: '35', cNF: '', mod: '55', serie: '1', nNF: '1', dhEmi: '', tpEmis: '1', dhCont: null, xJust: null, cDV: '', tpAmb: '2', idDest: '1', indFinal: '1', cMunFG: '3550308',
  emitCnpj: '11222333000181', emit: { ie: '110042490114', uf: 'SP', cMun: '3550308' },
  dest: { cnpj: '56558703000275', cpf: null, ie: '587124379116', indIEDest: '1', uf: 'SP', cMun: '3543907', ...dest },
  indIEDest: dest.indIEDest ?? '1', itemsWithoutIcmsUfDest: ['1'], itemsWithIcmsUfDest: [], hasIssqn: false, entregaUf: null, retiradaUf: null, tpNF: '1', finNFe: '1', refNFe: [],
  partilha: { items: [], totals: { vFCPUFDest: null, vICMSUFDest: null, vICMSUFRemet: null } }, additionalInfo: '', hasInfRespTec: true, digestValue: null, ...over,
});

test('checkIdentifiers accepts real identifiers, ISENTO and a note without recipient', (t) => {
  t.is(checkIdentifiers(facts()), null);
  t.is(checkIdentifiers(facts({ emit: { ie: 'ISENTO', uf: 'SP', cMun: '3550308' } })), null);
  t.is(checkIdentifiers(facts({ dest: null })), null);
  t.is(checkIdentifiers(facts({}, { uf: 'MG', cMun: '3106200', ie: '0623079040081' })), null, 'an MG IE checked by MG\'s rule');
});

test('checkIdentifiers: 209, 272/273, 270/271, 208, 237, 210, 274/275 and 694', (t) => {
  t.deepEqual(checkIdentifiers(facts({ emit: { ie: '110042490115', uf: 'SP', cMun: '3550308' } })), { cStat: 209 });
  t.deepEqual(checkIdentifiers(facts({ emit: { ie: '110042490114', uf: 'SP', cMun: '3550309' } })), { cStat: 272 });
  t.deepEqual(checkIdentifiers(facts({ emit: { ie: '110042490114', uf: 'SP', cMun: '3106200' } })), { cStat: 273 });
  t.deepEqual(checkIdentifiers(facts({ cMunFG: '3550309' })), { cStat: 270 });
  t.deepEqual(checkIdentifiers(facts({ cMunFG: '3106200' })), { cStat: 271 });
  t.deepEqual(checkIdentifiers(facts({}, { cnpj: '56558703000276' })), { cStat: 208 });
  t.deepEqual(checkIdentifiers(facts({}, { cnpj: null, cpf: '52998224726' })), { cStat: 237 });
  t.deepEqual(checkIdentifiers(facts({}, { ie: '587124379117' })), { cStat: 210 });
  t.deepEqual(checkIdentifiers(facts({}, { cMun: '3543908' })), { cStat: 274 });
  t.deepEqual(checkIdentifiers(facts({}, { cMun: '3106200' })), { cStat: 275 });
  const interstate = facts({ idDest: '2', itemsWithoutIcmsUfDest: ['2'] }, { uf: 'MG', cMun: '3106200', ie: null, indIEDest: '9' });
  t.deepEqual(checkIdentifiers(interstate), { cStat: 694, nItem: '2' });
  t.is(checkIdentifiers({ ...interstate, itemsWithoutIcmsUfDest: [] }), null);
  t.is(checkIdentifiers({ ...interstate, hasIssqn: true }), null, 'a service operation does not require the group');
});

test('checkIdentifiers: 695 for ICMSUFDest outside the interstate sale to a non-contributor consumer, unless delivered in another UF', (t) => {
  const withGroup = { itemsWithoutIcmsUfDest: ['1'], itemsWithIcmsUfDest: ['2'] };
  t.deepEqual(checkIdentifiers(facts(withGroup)), { cStat: 695, nItem: '2' }, 'internal sale to a contributor');
  t.deepEqual(checkIdentifiers(facts({ ...withGroup, idDest: '2' }, { uf: 'MG', cMun: '3106200', ie: '0623079040081', indIEDest: '1' })), { cStat: 695, nItem: '2' }, 'interstate to a contributor');
  const consumer = facts({ idDest: '2', itemsWithoutIcmsUfDest: [], itemsWithIcmsUfDest: ['1'] }, { uf: 'MG', cMun: '3106200', ie: null, indIEDest: '9' });
  t.is(checkIdentifiers(consumer), null);
  t.deepEqual(checkIdentifiers({ ...consumer, hasIssqn: true }), { cStat: 695, nItem: '1' }, 'a service operation');
  t.is(checkIdentifiers(facts({ ...withGroup, entregaUf: 'RJ' })), null, 'exceção 2: delivered in another UF than the emitter\'s');
});
