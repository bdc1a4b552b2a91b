import test from 'ava';
import fc from 'fast-check';
import { DomainError } from '../../../lib/errors/index.js';
import { formatCents, percentOf, toScaled } from '../../../lib/money.js';
import { checkNfe } from '../../../lib/nfe/check.js';
import { computeTotals } from '../../../lib/nfe/totals.js';
import type { Item, Pagamento } from '../../../lib/nfe/types.js';
import { validateNfeBody } from '../../../lib/nfe/validate.js';
import { aValidNfeBody, anIssuer, anItem } from '../../support/nfe-factories.js';

const money = (cents: bigint): number => Number(formatCents(cents));

test('computeTotals sums every ICMSTot field per item and closes vNF', (t) => {
  const items: Item[] = [
    anItem({ desconto: 10, valorFrete: 5.5, valorSeguro: 1.25, outrasDespesas: 0.75, icms: { origem: 0, cst: '00', vBC: 97.5, pICMS: 18, vICMS: 17.55, vBCFCP: 97.5, pFCP: 2, vFCP: 1.95 } }),
    anItem({
      quantidade: 1, valorUnitario: 200,
      icms: { origem: 0, cst: '10', vBC: 200, pICMS: 18, vICMS: 36, modBCST: 4, pMVAST: 40, vBCST: 280, pICMSST: 18, vICMSST: 14.4, vBCFCPST: 280, pFCPST: 2, vFCPST: 5.6 },
      ipi: { cst: '50', cEnq: '999', baseCalculo: 200, aliquota: 10, valor: 20 },
    }),
    // A kit component outside vProd (indTot 0); its discount still counts.
    anItem({ quantidade: 1, valorUnitario: 30, indTot: 0, desconto: 1, icms: { origem: 0, cst: '40', vICMSDeson: 5.4, motDesICMS: 9 } }),
    anItem({ cfop: '5656', unidade: 'L', quantidade: 10, valorUnitario: 6, icms: { origem: 0, cst: '61', qBCMonoRet: 10.5, adRemICMSRet: 1.12, vICMSMonoRet: 11.76 }, combustivel: { cProdANP: '820101034', descANP: 'DIESEL', ufConsumo: 'SP' } }),
  ];
  // vNF = (100 + 200 + 60) − 11 + 5.5 + 1.25 + 0.75 + 20 + 14.4 + 5.6 = 396.50
  const note = checkNfe(aValidNfeBody({ items, pagamentos: [{ forma: '01', valor: 396.5 }] }), anIssuer());
  const totals = computeTotals(note);
  t.deepEqual(totals, {
    vBC: 29750n, vICMS: 5355n, vICMSDeson: 540n, vFCP: 195n,
    vBCST: 28000n, vST: 1440n, vFCPST: 560n,
    qBCMono: 0n, vICMSMono: 0n, qBCMonoRet: 105000n, vICMSMonoRet: 1176n,
    vProd: 36000n, vFrete: 550n, vSeg: 125n, vDesc: 1100n, vIPI: 2000n,
    vPIS: 660n, vCOFINS: 3040n, vOutro: 75n,
    vNF: 39650n, vTotTrib: 0n,
  });
});

test('computeTotals leaves IBS/CBS totals out when no item has the group and sums them otherwise', (t) => {
  t.is(computeTotals(checkNfe(aValidNfeBody(), anIssuer())).ibsCbs, undefined);
  const ibsCbs = { cst: '000', cClassTrib: '000001', ibsUf: { p: 0.1 }, ibsMun: { p: 0.05 }, cbs: { p: 0.9 } };
  const note = checkNfe(aValidNfeBody({ items: [anItem({ ibsCbs }), anItem({ ibsCbs })], pagamentos: [{ forma: '01', valor: 200 }] }), anIssuer());
  t.deepEqual(computeTotals(note).ibsCbs, { vBCIBSCBS: 20000n, vIBSUF: 20n, vIBSMun: 10n, vIBS: 30n, vCBS: 180n });
  t.is(computeTotals(note).vNF, 20000n, 'IBS/CBS is not added to vNF');
});

// --- Property tests: random fiscally valid notes, built in integer cents by the generator ---

interface Generated { item: Item; contribution: bigint }

const cents = (max: number) => fc.integer({ min: 0, max }).map(BigInt);
const rate = fc.constantFrom(0, 4, 7, 12, 17.5, 18, 25);

const anyItem = fc.record({
  quantidade: fc.integer({ min: 1, max: 500 }),
  unitCents: fc.integer({ min: 1, max: 5_000_00 }).map(BigInt),
  indTot: fc.constantFrom<0 | 1>(1, 1, 1, 0),
  discountPct: fc.integer({ min: 0, max: 100 }),
  frete: cents(100_00), seguro: cents(50_00), outras: cents(20_00),
  kind: fc.constantFrom('00', '10', '40', 'ipi'),
  pICMS: rate, stCents: cents(500_00), fcpStCents: cents(50_00), ipiRate: rate,
}).map(({ quantidade, unitCents, indTot, discountPct, frete, seguro, outras, kind, pICMS, stCents, fcpStCents, ipiRate }): Generated => {
  const product = BigInt(quantidade) * unitCents;
  const desconto = (product * BigInt(discountPct)) / 100n;
  const own = { vBC: money(product), pICMS, vICMS: money(percentOf(product, toScaled(pICMS, 4), 4)) };
  let icms: Item['icms'] = { origem: 0, cst: '40' };
  let ipi: Item['ipi'];
  let extra = 0n;
  if (kind === '00') icms = { origem: 0, cst: '00', ...own };
  if (kind === '10') {
    icms = {
      origem: 0, cst: '10', ...own, modBCST: 4, vBCST: money(product), pICMSST: 18, vICMSST: money(stCents),
      ...(fcpStCents > 0n ? { vBCFCPST: money(product), pFCPST: 2, vFCPST: money(fcpStCents) } : {}),
    };
    extra = stCents + (fcpStCents > 0n ? fcpStCents : 0n);
  }
  if (kind === 'ipi') {
    const vIPI = percentOf(product, toScaled(ipiRate, 4), 4);
    ipi = { cst: '50', cEnq: '999', baseCalculo: money(product), aliquota: ipiRate, valor: money(vIPI) };
    extra = vIPI;
  }
  const item = anItem({
    quantidade, valorUnitario: money(unitCents), indTot,
    ...(desconto > 0n ? { desconto: money(desconto) } : {}),
    ...(frete > 0n ? { valorFrete: money(frete) } : {}),
    ...(seguro > 0n ? { valorSeguro: money(seguro) } : {}),
    ...(outras > 0n ? { outrasDespesas: money(outras) } : {}),
    icms, ...(ipi ? { ipi } : {}), pis: undefined, cofins: undefined,
  });
  return { item, contribution: (indTot === 1 ? product : 0n) - desconto + frete + seguro + outras + extra };
});

/** Splits `total` cents into 1-4 payments; change (troco) is added to the first, cash, payment. */
function payments(total: bigint, cuts: number[], troco: bigint): Pagamento[] {
  const points = [...new Set(cuts.map((c) => (total * BigInt(c)) / 1000n))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const parts: bigint[] = [];
  let previous = 0n;
  for (const p of [...points, total]) { parts.push(p - previous); previous = p; }
  const formas = ['01', '03', '17', '04'];
  return parts.filter((p, i) => p > 0n || i === 0).map((p, i) => ({ forma: formas[i % formas.length]!, valor: money(p + (i === 0 ? troco : 0n)) }));
}

const anyNote = fc.record({
  items: fc.array(anyItem, { minLength: 1, maxLength: 12 }),
  cuts: fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 3 }),
  troco: cents(50_00),
});

test('property: on random valid notes the totals close (vNF identity) and equal the generator total', (t) => {
  fc.assert(fc.property(anyNote, ({ items, cuts, troco }) => {
    const expected = items.reduce((acc, g) => acc + g.contribution, 0n);
    fc.pre(expected >= 0n);
    const body = validateNfeBody(aValidNfeBody({ items: items.map((g) => g.item), pagamentos: payments(expected, cuts, troco), ...(troco > 0n ? { troco: money(troco) } : {}) }));
    const totals = computeTotals(checkNfe(body, anIssuer()));
    return totals.vNF === expected
      && totals.vNF === totals.vProd - totals.vDesc + totals.vFrete + totals.vSeg + totals.vOutro + totals.vIPI + totals.vST + totals.vFCPST;
  }), { numRuns: 300 });
  t.pass();
});

test('property: payments minus change equal to vNF pass, and one cent off either way is refused', (t) => {
  fc.assert(fc.property(anyNote, fc.constantFrom(-1n, 1n), ({ items, cuts, troco }, delta) => {
    const expected = items.reduce((acc, g) => acc + g.contribution, 0n);
    fc.pre(expected > 1n);
    const base = { items: items.map((g) => g.item), ...(troco > 0n ? { troco: money(troco) } : {}) };
    checkNfe(aValidNfeBody({ ...base, pagamentos: payments(expected, cuts, troco) }), anIssuer());
    try {
      checkNfe(aValidNfeBody({ ...base, pagamentos: payments(expected + delta, cuts, troco) }), anIssuer());
      return false;
    } catch (error) {
      return error instanceof DomainError && error.type === 'PAGAMENTO_DIVERGENTE_DO_TOTAL';
    }
  }), { numRuns: 300 });
  t.pass();
});

test('computeTotals deducts vICMSDeson from vNF only when indDeduzDeson is 1', (t) => {
  const deson = (indDeduzDeson: 0 | 1) => anItem({ icms: { origem: 0, cst: '40', vICMSDeson: 18, motDesICMS: 7, indDeduzDeson } });
  t.is(computeTotals(checkNfe(aValidNfeBody({ items: [deson(0)] }), anIssuer())).vNF, 10000n);
  const note = checkNfe(aValidNfeBody({ items: [deson(1)], pagamentos: [{ forma: '01', valor: 82 }] }), anIssuer());
  t.like(computeTotals(note), { vICMSDeson: 1800n, vNF: 8200n });
});
