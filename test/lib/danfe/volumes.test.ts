import test from 'ava';
import { volumeLines } from '../../../lib/danfe/volumes.js';
import type { DanfeVolume } from '../../../lib/danfe/view-model.js';

const vol = (over: Partial<DanfeVolume>): DanfeVolume => ({ quantidade: '', especie: '', marca: '', numeracao: '', pesoLiquido: '', pesoBruto: '', ...over });

test('volumeLines keeps a single volume as is, with no total line', (t) => {
  const one = vol({ quantidade: '3', especie: 'CAIXA', pesoBruto: '1.500' });
  t.deepEqual(volumeLines([one]), { lines: [one], total: null });
  t.deepEqual(volumeLines([]), { lines: [], total: null });
});

test('volumeLines sums quantities and weights of several volumes exactly, never espécie, marca or numeração', (t) => {
  const out = volumeLines([
    vol({ quantidade: '3', especie: 'CAIXA', marca: 'A', numeracao: '1-3', pesoLiquido: '12.500', pesoBruto: '13.250' }),
    vol({ quantidade: '2', especie: 'PALETE', marca: 'B', numeracao: '4-5', pesoLiquido: '100.125', pesoBruto: '110.000' }),
    vol({ quantidade: '1', pesoLiquido: '0.1', pesoBruto: '' }),
  ]);
  t.is(out.lines.length, 3);
  t.deepEqual(out.total, { quantidade: '6', especie: 'TOTAL', marca: '', numeracao: '', pesoLiquido: '112.725', pesoBruto: '123.250' });
});

test('volumeLines leaves a total field empty when no volume has it', (t) => {
  const out = volumeLines([vol({ especie: 'CAIXA' }), vol({ especie: 'SACO' })]);
  t.deepEqual(out.total, { quantidade: '', especie: 'TOTAL', marca: '', numeracao: '', pesoLiquido: '', pesoBruto: '' });
});

test('volumeLines refuses a weight with more than 3 decimals instead of rounding it', (t) => {
  t.throws(() => volumeLines([vol({ pesoBruto: '1.2345' }), vol({ pesoBruto: '1' })]), { instanceOf: RangeError });
});
