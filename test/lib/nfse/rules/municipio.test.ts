import test from 'ava';
import { checkAdesaoMunicipio, municipioNaoAderenteFromSefin } from '../../../../lib/nfse/rules/municipio.js';
import { throwsCode } from '../../../support/domain-errors.js';

test('checkAdesaoMunicipio refuses only a confirmed nao_aderente, with the municipality and the authority text when known', (t) => {
  const e = throwsCode(t, () => checkAdesaoMunicipio('3550308', 'nao_aderente', 'Municipio nao aderente'), 'MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL');
  t.deepEqual(e.data, { codigoMunicipio: '3550308', mensagemSefin: 'Municipio nao aderente' });
  t.is(e.code, 422);
  t.notThrows(() => checkAdesaoMunicipio('3550308', 'desconhecido'));
  t.notThrows(() => checkAdesaoMunicipio('3550308', 'aderente'));
});

test('municipioNaoAderenteFromSefin keeps an E0037 message verbatim in mensagemSefin and ignores other codes', (t) => {
  const e = municipioNaoAderenteFromSefin('4205407', 'E0037', 'Município emissor não aderente ao Emissor Nacional.');
  t.is(e?.type, 'MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL');
  t.deepEqual(e?.data, { codigoMunicipio: '4205407', mensagemSefin: 'Município emissor não aderente ao Emissor Nacional.' });
  t.is(municipioNaoAderenteFromSefin('4205407', 'E0001', 'x'), undefined);
});
