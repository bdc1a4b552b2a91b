import test from 'ava';
import { buildChaveNfse, isValidChaveNfse } from '../../../../lib/sefin/simulator/chave.js';

test('buildChaveNfse lays out cLocEmi, ambGer, tpInsc, registration, nNFSe, AAMM, code and a modulo-11 digit', (t) => {
  const chave = buildChaveNfse({ cLocEmi: '3550308', ambGer: '2', cnpjOrCpf: '12345678000195', nNFSe: 12, aamm: '2611', cNum: 123456789 });
  t.is(chave.length, 50);
  t.is(chave.slice(0, 49), '3550308' + '2' + '2' + '12345678000195' + '0000000000012' + '2611' + '123456789');
  t.true(isValidChaveNfse(chave));
  const cpf = buildChaveNfse({ cLocEmi: '3550308', ambGer: '2', cnpjOrCpf: '52998224725', nNFSe: 1, aamm: '2611', cNum: 7 });
  t.is(cpf.slice(8, 23), '1000' + '52998224725');
});

test('isValidChaveNfse refuses a changed digit and other lengths; buildChaveNfse refuses bad parts', (t) => {
  const chave = buildChaveNfse({ cLocEmi: '3550308', ambGer: '2', cnpjOrCpf: '12345678000195', nNFSe: 99, aamm: '2611', cNum: 1 });
  const changed = chave.slice(0, 20) + ((Number(chave[20]) + 1) % 10) + chave.slice(21);
  t.false(isValidChaveNfse(changed));
  t.false(isValidChaveNfse(chave.slice(1)));
  t.throws(() => buildChaveNfse({ cLocEmi: '355030', ambGer: '2', cnpjOrCpf: '12345678000195', nNFSe: 1, aamm: '2611', cNum: 1 }), { instanceOf: RangeError });
  t.throws(() => buildChaveNfse({ cLocEmi: '3550308', ambGer: '2', cnpjOrCpf: '12345678000195', nNFSe: 1e13, aamm: '2611', cNum: 1 }), { instanceOf: RangeError });
});
