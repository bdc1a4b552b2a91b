import test from 'ava';
import { checkNfce, checkNfe } from '../../../../lib/nfe/check.js';
import { partilhaApplies, resolveIcmsUfDest, type PartilhaContext } from '../../../../lib/nfe/rules/icms-uf-dest.js';
import { computeTotals } from '../../../../lib/nfe/totals.js';
import type { Destinatario, IcmsUfDest, Item, NfeBody } from '../../../../lib/nfe/types.js';
import { aValidNfceBody, aValidNfeBody, anIssuer, anItem } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

/** The e-commerce sale of issue 22: an SP issuer (anIssuer) to a consumer's CPF in another UF. */
const consumerIn = (uf: string, codigoMunicipio: string, indicadorIE: 1 | 2 | 9 = 9): Destinatario => ({
  cnpjCpf: '52998224725', nome: 'Maria da Silva', indicadorIE,
  endereco: { logradouro: 'Rua A', numero: '10', bairro: 'Centro', codigoMunicipio, municipio: 'Cidade', uf },
});
const RJ = consumerIn('RJ', '3304557');
const ctxTo = (destinatario: Destinatario, over: Partial<PartilhaContext> = {}): PartilhaContext =>
  ({ model: '55', idDest: 2, indFinal: 1, originUf: 'SP', destinatario, ...over });
/** 1 × value, CST 00 at the interstate rate. */
const sale = (value: number, over: Partial<Item> = {}): Item =>
  anItem({ cfop: '6102', quantidade: 1, valorUnitario: value, icms: { origem: 0, cst: '00', modBC: 3, vBC: value, pICMS: 12, vICMS: Math.round(value * 12) / 100 }, ...over });
const resolve = (item: Item, ctx = ctxTo(RJ), index = 0) =>
  resolveIcmsUfDest(item, index, BigInt(Math.round(item.quantidade * item.valorUnitario * 100)), ctx);
const withGroup = (g: IcmsUfDest, value = 100, over: Partial<Item> = {}) => sale(value, { icmsUfDest: g, ...over });

test('partilhaApplies only to an interstate NF-e to a non-contributor final consumer', (t) => {
  t.true(partilhaApplies(ctxTo(RJ)));
  t.false(partilhaApplies(ctxTo(RJ, { idDest: 1 })));
  t.false(partilhaApplies(ctxTo(RJ, { idDest: 3 })));
  t.false(partilhaApplies(ctxTo(RJ, { indFinal: 0 })));
  t.false(partilhaApplies(ctxTo(consumerIn('RJ', '3304557', 1))));
  t.false(partilhaApplies(ctxTo(consumerIn('RJ', '3304557', 2))));
  t.false(partilhaApplies(ctxTo(RJ, { model: '65' })));
});

test('resolveIcmsUfDest computes SP → RJ: 12% interstate, RJ 20% + FCP 2%, base única on the item value', (t) => {
  t.deepEqual(resolve(sale(100)), {
    vBCUFDest: 10000n,
    fcp: { vBCFCPUFDest: 10000n, pFCPUFDest: '2.00', vFCPUFDest: 200n },
    pICMSUFDest: '20.00', pICMSInter: '12.00', pICMSInterPart: '100.00',
    vICMSUFDest: 800n, vICMSUFRemet: 0n,
  });
});

test('resolveIcmsUfDest uses 7% from SP to the Northeast and writes no FCP where the UF has no general FCP', (t) => {
  t.deepEqual(resolve(sale(100), ctxTo(consumerIn('BA', '2927408'))), {
    vBCUFDest: 10000n, pICMSUFDest: '20.50', pICMSInter: '7.00', pICMSInterPart: '100.00', vICMSUFDest: 1350n, vICMSUFRemet: 0n,
  });
});

test('resolveIcmsUfDest uses 4% for imported goods and 12% from the Northeast to the Southeast', (t) => {
  const imported = resolve(sale(100, { icms: { origem: 1, cst: '00', modBC: 3, vBC: 100, pICMS: 4, vICMS: 4 } }));
  t.like(imported, { pICMSInter: '4.00', vICMSUFDest: 1600n, fcp: { vFCPUFDest: 200n } });
  const fromBahia = resolve(sale(100), ctxTo(consumerIn('SP', '3550308'), { originUf: 'BA' }));
  t.like(fromBahia, { pICMSInter: '12.00', pICMSUFDest: '18.00', vICMSUFDest: 600n });
});

test('resolveIcmsUfDest rounds each value half away from zero to the cent', (t) => {
  // 33.33 × 8% = 2.6664 → 2.67; 33.33 × 2% = 0.6666 → 0.67
  t.like(resolve(sale(33.33)), { vBCUFDest: 3333n, vICMSUFDest: 267n, fcp: { vFCPUFDest: 67n } });
  // 100.25 × 2% = 2.005 → 2.01 (half up); 100.25 × 8% = 8.02
  t.like(resolve(sale(100.25)), { vICMSUFDest: 802n, fcp: { vFCPUFDest: 201n } });
});

test('resolveIcmsUfDest bases the partilha on the operation value: product − discount + freight + insurance + other + IPI', (t) => {
  const item = sale(100, { desconto: 10, valorFrete: 5, valorSeguro: 2, outrasDespesas: 3, ipi: { cst: '50', cEnq: '999', baseCalculo: 100, aliquota: 10, valor: 10 } });
  t.like(resolve(item), { vBCUFDest: 11000n, vICMSUFDest: 880n, fcp: { vBCFCPUFDest: 11000n, vFCPUFDest: 220n } });
});

test('resolveIcmsUfDest writes base 0 for exempt, immune and not taxed items (NT 2015.003 v1.80 lifts NA01-20 for them)', (t) => {
  for (const icms of [{ origem: 0, cst: '40' }, { origem: 0, cst: '41' }, { origem: 0, csosn: '103' }, { origem: 0, csosn: '300' }, { origem: 0, csosn: '400' }]) {
    t.like(resolve(sale(100, { icms })), { vBCUFDest: 0n, vICMSUFDest: 0n, fcp: { vBCFCPUFDest: 0n, vFCPUFDest: 0n } }, JSON.stringify(icms));
  }
  t.like(resolve(sale(100, { icms: { origem: 0, csosn: '102' } })), { vBCUFDest: 10000n, vICMSUFDest: 800n }, 'a Simples sale with CSOSN 102 is taxed');
  t.like(resolve(sale(100, { icms: { origem: 0, cst: '60' } })), { vBCUFDest: 10000n, vICMSUFDest: 800n }, 'ST charged before does not remove the partilha');
});

test('resolveIcmsUfDest takes the product rates the item sends instead of the modal ones', (t) => {
  const g = resolve(withGroup({ pICMSUFDest: 25, pFCPUFDest: 2 }));
  t.like(g, { pICMSUFDest: '25.00', vICMSUFDest: 1300n, fcp: { pFCPUFDest: '2.00', vFCPUFDest: 200n } });
  const noFcp = resolve(withGroup({ pFCPUFDest: 0 }));
  t.like(noFcp, { fcp: { pFCPUFDest: '0.00', vFCPUFDest: 0n } }, 'a sent FCP field writes the FCP triple even at 0');
});

test('resolveIcmsUfDest keeps a complete coherent group as sent, one cent of tolerance', (t) => {
  const full: IcmsUfDest = { vBCUFDest: 100, vBCFCPUFDest: 100, pFCPUFDest: 2, pICMSUFDest: 20, pICMSInter: 12, pICMSInterPart: 100, vFCPUFDest: 2, vICMSUFDest: 8, vICMSUFRemet: 0 };
  t.deepEqual(resolve(withGroup(full)), resolve(sale(100)));
  t.like(resolve(withGroup({ ...full, vICMSUFDest: 8.01, vFCPUFDest: 1.99 })), { vICMSUFDest: 801n, fcp: { vFCPUFDest: 199n } });
});

test('resolveIcmsUfDest accepts a base dupla sent by the partner (vBCUFDest grossed up)', (t) => {
  // SP → MG: (100 − 12) / (1 − 0.18) = 107.32; 107.32 × 18% − 100 × 12% = 19.32 − 12.00 = 7.32
  const mg = ctxTo(consumerIn('MG', '3106200'));
  t.like(resolve(withGroup({ vBCUFDest: 107.32, pICMSUFDest: 18, vICMSUFDest: 7.32 }), mg), { vBCUFDest: 10732n, vICMSUFDest: 732n });
});

test('resolveIcmsUfDest refuses values incoherent with the rates (ICMS_UF_DEST_INVALIDO)', (t) => {
  const dest = throwsCode(t, () => resolve(withGroup({ vICMSUFDest: 8.02 }), ctxTo(RJ), 2), 'ICMS_UF_DEST_INVALIDO');
  t.deepEqual(dest.data, {
    item: 2, campos: ['items[2].icmsUfDest.vICMSUFDest'], esperado: '8.00', recebido: '8.02',
    motivo: 'vBCUFDest × (pICMSUFDest − pICMSInter) = 100.00 × (20.00% − 12.00%)',
  });
  const fcp = throwsCode(t, () => resolve(withGroup({ vFCPUFDest: 3 })), 'ICMS_UF_DEST_INVALIDO');
  t.like(fcp.data, { campos: ['items[0].icmsUfDest.vFCPUFDest'], esperado: '2.00', recebido: '3.00' });
  const remet = throwsCode(t, () => resolve(withGroup({ vICMSUFRemet: 1 })), 'ICMS_UF_DEST_INVALIDO');
  t.like(remet.data, { campos: ['items[0].icmsUfDest.vICMSUFRemet'], esperado: '0.00', recebido: '1.00' });
});

test('resolveIcmsUfDest refuses an interstate rate that is not the operation\'s and a partilha other than 100%', (t) => {
  const inter = throwsCode(t, () => resolve(withGroup({ pICMSInter: 12 }), ctxTo(consumerIn('BA', '2927408'))), 'ICMS_UF_DEST_INVALIDO');
  t.like(inter.data, { campos: ['items[0].icmsUfDest.pICMSInter'], esperado: '7.00', recebido: '12.00', origem: 0, ufOrigem: 'SP', ufDestino: 'BA' });
  const imported = throwsCode(t, () => resolve(withGroup({ pICMSInter: 12 }, 100, { icms: { origem: 2, cst: '00', vBC: 100, pICMS: 4, vICMS: 4 } })), 'ICMS_UF_DEST_INVALIDO');
  t.like(imported.data, { esperado: '4.00', recebido: '12.00' });
  const part = throwsCode(t, () => resolve(withGroup({ pICMSInterPart: 80 })), 'ICMS_UF_DEST_INVALIDO');
  t.like(part.data, { campos: ['items[0].icmsUfDest.pICMSInterPart'], esperado: '100.00', recebido: '80.00' });
});

test('resolveIcmsUfDest refuses a destination that is not a UF of the table', (t) => {
  const err = throwsCode(t, () => resolve(sale(100), ctxTo(consumerIn('XX', '3304557'))), 'ICMS_UF_DEST_INVALIDO');
  t.deepEqual(err.data, { item: 0, campos: ['items[0].icmsUfDest'], uf: 'XX', motivo: 'UF de destino sem alíquota interna conhecida' });
});

test('resolveIcmsUfDest refuses the group where the partilha does not apply (ICMS_UF_DEST_INDEVIDO, rejection 695)', (t) => {
  const internal = throwsCode(t, () => resolve(withGroup({}), ctxTo(consumerIn('SP', '3550308'), { idDest: 1 })), 'ICMS_UF_DEST_INDEVIDO');
  t.deepEqual(internal.data, {
    item: 0, campos: ['items[0].icmsUfDest'], modelo: '55', idDest: 1, indFinal: 1, indicadorIE: 9,
    motivo: 'a partilha (EC 87/2015) só se aplica à NF-e interestadual para consumidor final não contribuinte; retire o grupo',
  });
  const contributor = throwsCode(t, () => resolve(withGroup({}), ctxTo(consumerIn('RJ', '3304557', 1), { indFinal: 0 })), 'ICMS_UF_DEST_INDEVIDO');
  t.like(contributor.data, { idDest: 2, indFinal: 0, indicadorIE: 1 });
  t.is(resolve(sale(100), ctxTo(RJ, { idDest: 1 })), undefined, 'without the group nothing is written outside the partilha');
});

const ecommerce = (over: Partial<NfeBody> = {}) => aValidNfeBody({ destinatario: RJ, items: [sale(100)], ...over });

test('checkNfe gives every item of the interstate consumer sale its ICMSUFDest and sums the totals outside vNF', (t) => {
  const note = checkNfe(ecommerce({ items: [sale(100), sale(33.33)], pagamentos: [{ forma: '01', valor: 133.33 }] }), anIssuer());
  t.is(note.idDest, 2);
  t.deepEqual(note.items.map((i) => i.icmsUfDestResolved?.vICMSUFDest), [800n, 267n]);
  const totals = computeTotals(note);
  t.deepEqual(totals.icmsUfDest, { vFCPUFDest: 267n, vICMSUFDest: 1067n, vICMSUFRemet: 0n });
  t.is(totals.vNF, 13333n);
});

test('checkNfe leaves the partilha totals out of a note without the group', (t) => {
  const note = checkNfe(aValidNfeBody(), anIssuer());
  t.is(note.items[0]!.icmsUfDestResolved, undefined);
  t.false('icmsUfDest' in computeTotals(note));
});

test('checkNfe and checkNfce refuse the group outside the partilha with ICMS_UF_DEST_INDEVIDO', (t) => {
  throwsCode(t, () => checkNfe(aValidNfeBody({ items: [anItem({ icmsUfDest: {} })] }), anIssuer()), 'ICMS_UF_DEST_INDEVIDO');
  throwsCode(t, () => checkNfe(ecommerce({ destinatario: { ...RJ, cnpjCpf: '11444777000161', indicadorIE: 1, ie: '81281777' }, indFinal: 0, items: [sale(100, { icmsUfDest: {} })] }), anIssuer()), 'ICMS_UF_DEST_INDEVIDO');
  throwsCode(t, () => checkNfce(aValidNfceBody({ items: [anItem({ icmsUfDest: {} })] }), anIssuer()), 'ICMS_UF_DEST_INDEVIDO');
});
