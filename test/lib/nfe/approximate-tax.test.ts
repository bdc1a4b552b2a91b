import test from 'ava';
import fc from 'fast-check';
import { DomainError } from '../../../lib/errors/index.js';
import { applyApproximateTax, approximateTaxText, itemApproximateTax } from '../../../lib/nfe/approximate-tax.js';
import { computeTotals } from '../../../lib/nfe/totals.js';
import { aNfe, anItem } from '../../support/checked-note-factories.js';
import { aRate, ratesByNcm } from '../../support/approximate-tax.js';

const DAY = '2026-11-22';
const pen = (over = {}) => anItem({ quantidade: 2, valorUnitario: 50, ...over }); // 100.00, NCM 96081000

function refusal(t: any, fn: () => unknown): DomainError {
  const err = t.throws(fn) as DomainError;
  t.is(err.type, 'TRIBUTOS_APROXIMADOS_INDISPONIVEIS');
  t.is(err.code, 422);
  return err;
}

test('itemApproximateTax applies the national federal, state and municipal rates to the net price', (t) => {
  const rate = aRate({ nacionalFederal: 134500n, estadual: 180000n, municipal: 20000n });
  t.deepEqual(itemApproximateTax(pen({ desconto: 10 }), rate), { federal: 1211n, estadual: 1620n, municipal: 180n, total: 3011n });
});

test('itemApproximateTax uses the imported federal rate for foreign goods', (t) => {
  const item = pen({ icms: { origem: 2, cst: '00', modBC: 3, vBC: 100, pICMS: 18, vICMS: 18 } });
  t.deepEqual(itemApproximateTax(item, aRate()), { federal: 1700n, estadual: 1800n, municipal: 0n, total: 3500n });
});

test('itemApproximateTax rounds each burden to the cent and the item total is their sum', (t) => {
  const item = anItem({ quantidade: 1, valorUnitario: 0.33 }); // 0.33 × 13 % = 0.0429, × 18 % = 0.0594
  t.deepEqual(itemApproximateTax(item, aRate()), { federal: 4n, estadual: 6n, municipal: 0n, total: 10n });
});

test('applyApproximateTax gives each item its vTotTrib, the note the sum and the consumer text', (t) => {
  // 100.00 × (13 + 18) %; 99.50 × 13.45 % = 13.38 and × 18 % = 17.91.
  const note = applyApproximateTax(aNfe([pen(), pen({ ncm: '61091000', desconto: 0.5 })]), ratesByNcm(aRate(), aRate({ ncm: '61091000', nacionalFederal: 134500n })), 'SP', DAY);
  t.deepEqual(note.items.map((i) => i.approximateTax?.total), [3100n, 3129n]);
  t.deepEqual({ ...note.approximateTax, texto: undefined }, { federal: 2638n, estadual: 3591n, municipal: 0n, total: 6229n, texto: undefined });
  t.is(note.approximateTax!.texto, 'Tributos aproximados (Lei 12.741/2012): R$ 26,38 federais, R$ 35,91 estaduais e R$ 0,00 municipais. Fonte: TESTE 99.9.T (chave TESTE1).');
  t.is(computeTotals(note).vTotTrib, 6229n);
});

test('applyApproximateTax accepts the first and the last day of the rate validity', (t) => {
  const note = aNfe([pen()]);
  t.truthy(applyApproximateTax(note, ratesByNcm(aRate()), 'SP', '2026-11-01').approximateTax);
  t.truthy(applyApproximateTax(note, ratesByNcm(aRate()), 'SP', '2026-12-31').approximateTax);
});

test('applyApproximateTax refuses TRIBUTOS_APROXIMADOS_INDISPONIVEIS listing every item it cannot value', (t) => {
  const note = aNfe([pen(), pen({ ncm: '61091000' }), pen({ ncm: '00' })]);
  const err = refusal(t, () => applyApproximateTax(note, ratesByNcm(aRate()), 'SP', DAY));
  t.deepEqual(err.data, {
    itensNaoResolvidos: [
      { index: 1, ncm: '61091000', motivo: 'NCM sem alíquota na tabela de tributos aproximados vigente para a UF SP' },
      { index: 2, ncm: '00', motivo: 'NCM de 2 dígitos não tem alíquota aproximada: informe o NCM completo (8 dígitos)' },
    ],
  });
});

test('applyApproximateTax refuses a rate whose table expired or has not started', (t) => {
  const expired = refusal(t, () => applyApproximateTax(aNfe([pen()]), ratesByNcm(aRate({ vigenciaFim: '2026-11-21' })), 'SP', DAY));
  t.deepEqual(expired.data, { itensNaoResolvidos: [{ index: 0, ncm: '96081000', motivo: 'tabela de tributos aproximados da UF SP (versão 99.9.T) vencida em 21/11/2026' }] });
  const early = refusal(t, () => applyApproximateTax(aNfe([pen()]), ratesByNcm(aRate({ vigenciaInicio: '2026-11-23' })), 'SP', DAY));
  t.deepEqual(early.data, { itensNaoResolvidos: [{ index: 0, ncm: '96081000', motivo: 'tabela de tributos aproximados da UF SP (versão 99.9.T) vigente somente a partir de 23/11/2026' }] });
});

test('applyApproximateTax refuses complementary text that leaves no room for the Lei 12.741 text, and accepts it at the limit', (t) => {
  const texto = applyApproximateTax(aNfe([pen()]), ratesByNcm(aRate()), 'SP', DAY).approximateTax!.texto;
  const room = 5000 - 1 - texto.length;
  const fits = applyApproximateTax(aNfe([pen()], { informacoesComplementares: 'x'.repeat(room) }), ratesByNcm(aRate()), 'SP', DAY);
  t.is(fits.approximateTax!.texto, texto);
  const err = t.throws(() => applyApproximateTax(aNfe([pen()], { informacoesComplementares: 'x'.repeat(room + 1) }), ratesByNcm(aRate()), 'SP', DAY)) as DomainError;
  t.is(err.type, 'VALIDATION_ERROR');
  t.deepEqual(err.data, { errors: [{ field: 'informacoesComplementares', message: `informacoesComplementares deve ter no máximo ${room} caracteres quando o emissor exibe o valor aproximado dos tributos (o texto da Lei 12.741 ocupa ${texto.length + 1} dos 5000).` }] });
});

test('approximateTaxText lists each distinct source once and keeps the text in the layout charset', (t) => {
  const sources = [aRate({ fonte: 'IBPT/empresômetro – oficial', chave: '' }), aRate({ fonte: 'IBPT/empresômetro – oficial', chave: '' }), aRate({ versao: '99.9.U' })];
  t.is(approximateTaxText({ federal: 123456n, estadual: 5n, municipal: 0n, total: 123461n }, sources),
    'Tributos aproximados (Lei 12.741/2012): R$ 1.234,56 federais, R$ 0,05 estaduais e R$ 0,00 municipais. Fonte: IBPT/empresômetro - oficial 99.9.T; TESTE 99.9.U (chave TESTE1).');
});

test('applyApproximateTax on random notes: items split exactly, the note is their sum, each burden within half a cent of exact', (t) => {
  const percent4 = fc.bigInt({ min: 0n, max: 400_000n }); // 0-40 % with 4 decimals
  const anyItem = fc.record({ qty: fc.integer({ min: 1, max: 500 }), unit: fc.integer({ min: 1, max: 1_000_000 }), origem: fc.integer({ min: 0, max: 8 }), discountPct: fc.integer({ min: 0, max: 100 }) });
  fc.assert(fc.property(fc.array(anyItem, { minLength: 1, maxLength: 20 }), percent4, percent4, percent4, percent4, (raw, nf, imp, est, mun) => {
    const items = raw.map((r) => {
      const vProd = (r.qty * r.unit) / 100;
      return anItem({ quantidade: r.qty, valorUnitario: r.unit / 100, desconto: Math.floor(vProd * r.discountPct) / 100, icms: { origem: r.origem, cst: '41' } });
    });
    const rate = aRate({ nacionalFederal: nf, importadosFederal: imp, estadual: est, municipal: mun });
    const note = applyApproximateTax(aNfe(items), ratesByNcm(rate), 'SP', DAY);
    let sum = 0n;
    for (const item of note.items) {
      const a = item.approximateTax!;
      if (a.total !== a.federal + a.estadual + a.municipal) return false;
      const base = item.valorTotalCents - BigInt(Math.round((item.desconto ?? 0) * 100));
      const fed = [1, 2, 6, 7].includes(item.icms.origem) ? imp : nf;
      // |burden × 10^6 − base × rate| ≤ half a cent (× 10^6), for each of the three burdens
      for (const [v, r] of [[a.federal, fed], [a.estadual, est], [a.municipal, mun]] as const) {
        const diff = v * 1_000_000n - base * r;
        if (diff > 500_000n || diff < -500_000n) return false;
      }
      sum += a.total;
    }
    return note.approximateTax!.total === sum && computeTotals(note).vTotTrib === sum
      && note.approximateTax!.federal + note.approximateTax!.estadual + note.approximateTax!.municipal === sum;
  }), { numRuns: 300 });
  t.pass();
});
