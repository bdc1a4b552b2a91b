import test from 'ava';
import { isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf, withCnpjCheckDigits, withCpfCheckDigits } from '../../../lib/issuer/documents.js';

test('isValidCnpj accepts a known numeric CNPJ and refuses a wrong check digit', (t) => {
  t.true(isValidCnpj('11222333000181'));
  t.false(isValidCnpj('11222333000182'));
  t.false(isValidCnpj('11222333000191'));
});

test('isValidCnpj accepts the alphanumeric CNPJ of the RFB example (12ABC34501DE35)', (t) => {
  // Serpro/RFB published example: base 12ABC34501DE, check digits 35.
  t.true(isValidCnpj('12ABC34501DE35'));
  t.false(isValidCnpj('12ABC34501DE36'));
  t.is(withCnpjCheckDigits('12ABC34501DE'), '12ABC34501DE35');
});

test('isValidCnpj refuses lowercase, wrong length, letters in the check digits and repeated digits', (t) => {
  t.false(isValidCnpj('12abc34501de35'));
  t.false(isValidCnpj('1122233300018'));
  t.false(isValidCnpj('12ABC34501DEA5'));
  t.false(isValidCnpj('00000000000000'));
  t.false(isValidCnpj('11111111111111'));
});

test('normalizeCnpj strips punctuation and upper-cases', (t) => {
  t.is(normalizeCnpj('11.222.333/0001-81'), '11222333000181');
  t.is(normalizeCnpj('12.abc.345/01de-35'), '12ABC34501DE35');
});

test('isValidCpf checks both digits and refuses repeated digits', (t) => {
  t.true(isValidCpf('52998224725'));
  t.false(isValidCpf('52998224726'));
  t.false(isValidCpf('11111111111'));
  t.false(isValidCpf('5299822472'));
  t.is(withCpfCheckDigits('529982247'), '52998224725');
  t.is(normalizeCpf('529.982.247-25'), '52998224725');
});
