import test from 'ava';
import { interstateRate, parseUfRates, rateText, ufRates, type UfRates } from '../../../lib/nfe/difal-rates.js';

const uf = (code: string): UfRates => ufRates(code)!;

test('ufRates reads the 27 UFs of data/icms with their modal rate and general FCP', (t) => {
  t.like(uf('RJ'), { uf: 'RJ', region: 'SE', pICMS: 200000n, pFCP: 20000n });
  t.like(uf('SP'), { region: 'SE', pICMS: 180000n, pFCP: 0n });
  t.like(uf('BA'), { region: 'NE', pICMS: 205000n });
  t.like(uf('MA'), { region: 'NE', pICMS: 230000n });
  t.is(ufRates('EX'), undefined);
  t.is(ufRates('XX'), undefined);
});

test('interstateRate is 4% for imported goods (origem 1, 2, 3, 8) whatever the UFs', (t) => {
  for (const origem of [1, 2, 3, 8]) t.is(interstateRate('SP', uf('BA'), origem), '4.00');
  for (const origem of [1, 2, 3, 8]) t.is(interstateRate('BA', uf('SP'), origem), '4.00');
});

test('interstateRate is 7% from S/SE except ES to N, NE, CO and ES', (t) => {
  for (const from of ['SP', 'RJ', 'MG', 'PR', 'RS', 'SC']) {
    for (const to of ['AM', 'BA', 'DF', 'GO', 'ES', 'TO']) t.is(interstateRate(from, uf(to), 0), '7.00', `${from}→${to}`);
  }
  for (const origem of [0, 4, 5, 6, 7]) t.is(interstateRate('SP', uf('PE'), origem), '7.00');
});

test('interstateRate is 12% in every other interstate case', (t) => {
  t.is(interstateRate('SP', uf('RJ'), 0), '12.00');
  t.is(interstateRate('PR', uf('SC'), 0), '12.00');
  t.is(interstateRate('ES', uf('BA'), 0), '12.00', 'ES is the exception among the Southeast origins');
  t.is(interstateRate('BA', uf('SP'), 0), '12.00');
  t.is(interstateRate('GO', uf('PA'), 6), '12.00', 'origem 6 (imported without national similar, CAMEX list) is not 4%');
});

test('parseUfRates fails loudly on a malformed table', (t) => {
  t.throws(() => parseUfRates(JSON.stringify({ ufs: { SP: { regiao: 'SE', pICMS: '18', pFCP: '0.00' } } })), { message: /invalid row SP/ });
  t.throws(() => parseUfRates(JSON.stringify({ ufs: { SP: { regiao: 'XX', pICMS: '18.00', pFCP: '0.00' } } })), { message: /invalid row SP/ });
  t.throws(() => parseUfRates(JSON.stringify({ ufs: { SP: { regiao: 'SE', pICMS: '18.00', pFCP: '0.00' } } })), { message: /1 UFs, expected 27/ });
});

test('rateText prints 2 to 4 decimals as TDec_0302a04', (t) => {
  t.is(rateText(180000n), '18.00');
  t.is(rateText(205000n), '20.50');
  t.is(rateText(181250n), '18.1250');
  t.is(rateText(0n), '0.00');
});
