import test from 'ava';
import { checkIssuerValues, withMunicipalityName } from '../../../lib/issuer/rules.js';
import { municipality } from '../../../lib/issuer/municipalities.js';

test('checkIssuerValues accepts a valid CNPJ and an IBGE code of the given UF', (t) => {
  t.deepEqual(checkIssuerValues({ cnpj: '11222333000181', endereco: { codigoMunicipio: '3550308', uf: 'SP' } }), []);
});

test('checkIssuerValues names the CNPJ, an unknown IBGE code and a code of another UF', (t) => {
  t.deepEqual(checkIssuerValues({ cnpj: '11222333000182' }), [{ field: 'cnpj', message: 'CNPJ inválido: dígitos verificadores não conferem.' }]);
  t.deepEqual(checkIssuerValues({ endereco: { codigoMunicipio: '9999999', uf: 'SP' } }), [{ field: 'endereco.codigoMunicipio', message: 'Código IBGE 9999999 não existe na tabela de municípios.' }]);
  t.deepEqual(checkIssuerValues({ endereco: { codigoMunicipio: '5300108', uf: 'GO' } }), [{ field: 'endereco.codigoMunicipio', message: 'Município 5300108 (Brasília) pertence a DF, não a GO.' }]);
});

test('withMunicipalityName fills the IBGE name only when missing', (t) => {
  t.deepEqual(withMunicipalityName({ codigoMunicipio: '3304557' }), { codigoMunicipio: '3304557', municipio: 'Rio de Janeiro' });
  t.deepEqual(withMunicipalityName({ codigoMunicipio: '3304557', municipio: 'Rio' }), { codigoMunicipio: '3304557', municipio: 'Rio' });
  t.deepEqual(municipality('3550308'), { codigo: '3550308', nome: 'São Paulo', uf: 'SP' });
});
