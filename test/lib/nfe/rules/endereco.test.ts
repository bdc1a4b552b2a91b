import test from 'ava';
import { checkNfe } from '../../../../lib/nfe/check.js';
import { checkEndereco } from '../../../../lib/nfe/rules/endereco.js';
import type { Endereco } from '../../../../lib/nfe/types.js';
import { aValidNfeBody, anIssuer } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

/** lib/nfe/rules/endereco.ts: the recipient's IBGE municipality and country. */
const sp: Endereco = aValidNfeBody().destinatario.endereco;
const abroad: Endereco = {
  logradouro: 'Avenida Corrientes', numero: '1234', bairro: 'San Nicolas', codigoMunicipio: '9999999',
  municipio: 'EXTERIOR', uf: 'EX', codigoPais: '639', pais: 'Argentina',
};
const check = (endereco: Endereco) => () => checkEndereco(endereco, 'destinatario.endereco');

test('checkNfe refuses codigoMunicipio 3550309, not an IBGE code (MUNICIPIO_INVALIDO, issue 22 example)', (t) => {
  const body = aValidNfeBody();
  body.destinatario.endereco.codigoMunicipio = '3550309';
  const err = throwsCode(t, () => checkNfe(body, anIssuer()), 'MUNICIPIO_INVALIDO');
  t.deepEqual(err.data, { campo: 'destinatario.endereco.codigoMunicipio', valor: '3550309', uf: 'SP' });
  t.is(err.message, "'destinatario.endereco.codigoMunicipio' 3550309 não é código IBGE de município.");
});

test("checkEndereco refuses another UF's municipality, naming both UFs", (t) => {
  const err = throwsCode(t, check({ ...sp, codigoMunicipio: '3304557' }), 'MUNICIPIO_INVALIDO');
  t.deepEqual(err.data, { campo: 'destinatario.endereco.codigoMunicipio', valor: '3304557', uf: 'SP', ufDoMunicipio: 'RJ' });
  t.is(err.message, "'destinatario.endereco.codigoMunicipio' 3304557 (Rio de Janeiro) é de RJ, não de SP.");
});

test('checkEndereco accepts a Brazilian address with or without 1058/Brasil, in any case and accent', (t) => {
  t.notThrows(check(sp));
  t.notThrows(check({ ...sp, codigoPais: '1058', pais: 'BRASIL' }));
  t.notThrows(check({ ...sp, pais: 'brasil' }));
});

test('checkEndereco refuses a Brazilian address with another country code or name (PAIS_INCOERENTE)', (t) => {
  const code = throwsCode(t, check({ ...sp, codigoPais: '639' }), 'PAIS_INCOERENTE');
  t.deepEqual(code.data, {
    campo: 'destinatario.endereco.codigoPais', uf: 'SP', codigoPais: '639',
    motivo: 'endereço no Brasil (uf SP) usa codigoPais 1058 e pais Brasil (ou omita os dois)',
  });
  t.is(code.message, "País incoerente com 'destinatario.endereco.uf': endereço no Brasil (uf SP) usa codigoPais 1058 e pais Brasil (ou omita os dois).");
  throwsCode(t, check({ ...sp, codigoPais: '1058', pais: 'Argentina' }), 'PAIS_INCOERENTE');
});

test('checkEndereco accepts an address abroad with UF EX, municipality 9999999 and its country', (t) => {
  t.notThrows(check(abroad));
});

test('checkEndereco refuses an address abroad with an IBGE municipality (MUNICIPIO_INVALIDO)', (t) => {
  const err = throwsCode(t, check({ ...abroad, codigoMunicipio: '3550308' }), 'MUNICIPIO_INVALIDO');
  t.deepEqual(err.data, { campo: 'destinatario.endereco.codigoMunicipio', valor: '3550308', uf: 'EX' });
});

test('checkEndereco refuses an address abroad without its country, or with Brazil (PAIS_INCOERENTE)', (t) => {
  const { codigoPais: _c, ...withoutCode } = abroad;
  for (const endereco of [withoutCode, { ...abroad, codigoPais: '1058' }, { ...abroad, pais: 'Brasil' }]) {
    const err = throwsCode(t, check(endereco), 'PAIS_INCOERENTE');
    t.like(err.data, { campo: 'destinatario.endereco.codigoPais', uf: 'EX' });
  }
});

test('checkNfe refuses an IE for a recipient abroad', (t) => {
  const body = aValidNfeBody({ destinatario: { cnpjCpf: '11444777000161', nome: 'Cliente Exterior', indicadorIE: 9, ie: '110042490114', endereco: abroad } });
  const err = throwsCode(t, () => checkNfe(body, anIssuer()), 'IE_INVALIDA');
  t.like(err.data, { campo: 'destinatario.ie', uf: 'EX' });
});
