import test from 'ava';
import { isValidIe, UFS } from '../../../lib/issuer/inscricao-estadual.js';

/**
 * One valid and one invalid registration per UF (data/ie/README.md). Valid: the example number of
 * the UF's SINTEGRA page (cad_<UF>.html) or, where noted, a registration reported as real in a
 * public issue thread. Invalid: the same number with its last check digit changed, so each case
 * fails on the digit and not on the shape.
 */
const VALID: Record<(typeof UFS)[number], string> = {
  AC: '0100482300112',
  AL: '240841530', // mariohmol/ng-brazil #67
  AM: '053343050', // martinusso/docsbr.net #26
  AP: '030123459',
  BA: '077028884', // caelum/caelum-stella #29
  CE: '060000015',
  DF: '0759713000214', // caelum/caelum-stella #28
  ES: '999999990',
  GO: '109876547',
  MA: '120000385',
  MG: '7029855470002', // caelum/caelum-stella #29
  MS: '283037598',
  MT: '00130000019',
  PA: '159999995',
  PB: '060000015',
  PE: '032141840',
  PI: '012345679',
  PR: '7010435883', // hhernany/ultraveloz #25
  RJ: '99999993',
  RN: '200400401',
  RO: '00000000625213',
  RR: '240066281',
  RS: '4680001479', // caelum/caelum-stella #115
  SC: '251040852',
  SE: '271234563',
  SP: '110042490114',
  TO: '29010227836',
};

const withWrongLastDigit = (ie: string) => ie.slice(0, -1) + String((Number(ie.at(-1)) + 1) % 10);

for (const uf of UFS) {
  test(`isValidIe accepts a real ${uf} registration and refuses it with a wrong check digit`, (t) => {
    t.true(isValidIe(VALID[uf], uf), VALID[uf]);
    t.false(isValidIe(withWrongLastDigit(VALID[uf]), uf), withWrongLastDigit(VALID[uf]));
  });
}

test('isValidIe checks the UF: a valid SP number is not an RJ one', (t) => {
  t.false(isValidIe(VALID.SP, 'RJ'));
  t.false(isValidIe(VALID.RJ, 'SP'));
});

test('isValidIe refuses the issue 22 example ie "123" for SP, ISENTO, masks and EX', (t) => {
  t.false(isValidIe('123', 'SP'));
  t.false(isValidIe('ISENTO', 'SP'));
  t.false(isValidIe('110.042.490.114', 'SP'));
  t.false(isValidIe(VALID.SP, 'EX'));
});

test('isValidIe BA: both the 8-digit and 9-digit forms, modulo 10 and modulo 11 (SINTEGRA and SEFAZ-BA examples)', (t) => {
  for (const ie of ['12345663', '61234557', '123456748', '162345651']) t.true(isValidIe(ie, 'BA'), ie);
});

test('isValidIe RN: the 10-digit form too', (t) => {
  t.true(isValidIe('2000400400', 'RN'));
  t.false(isValidIe('2000400401', 'RN'));
});

test('isValidIe GO: prefixes 20-29 (SEFAZ-GO since 2023) and the old range whose remainder 1 takes digit 1', (t) => {
  t.true(isValidIe('200000012', 'GO'));
  t.true(isValidIe('210000015', 'GO'));
  t.false(isValidIe('300000016', 'GO'), 'prefix 30 does not exist');
  // 10103105: remainder 1 inside 10103105-10119997 → 1; 10103113: remainder 0 → 0 (validations-br swaps them).
  t.true(isValidIe('101031051', 'GO'));
  t.false(isValidIe('101031050', 'GO'));
  t.true(isValidIe('101031130', 'GO'));
  t.false(isValidIe('101031131', 'GO'));
});

test('isValidIe PA: prefix 75 (SEFA-PA since October 2024) as well as 15, nothing else', (t) => {
  t.true(isValidIe('750000015', 'PA'));
  t.false(isValidIe('750000016', 'PA'));
  t.false(isValidIe('060000015', 'PA'), 'a CE-valid number without the PA prefix');
});

test('isValidIe AL: the prefix 24 is required even when the digit computes', (t) => {
  // 01000000: 1 × 8 = 8, × 10 = 80, mod 11 = 3 → digit 3 under AL's formula, but no 24.
  t.false(isValidIe('010000003', 'AL'));
});
