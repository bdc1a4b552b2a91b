import test from 'ava';
import { authorityBases, sefinUrl, twinBases } from '../../../lib/sefin/endpoints.js';

test('authorityBases gives produção and produção restrita hosts from data/sefin/endpoints.json', (t) => {
  t.deepEqual(authorityBases(1), { sefin: 'https://sefin.nfse.gov.br/SefinNacional', parametrizacao: 'https://adn.nfse.gov.br/parametrizacao' });
  t.deepEqual(authorityBases(2), {
    sefin: 'https://sefin.producaorestrita.nfse.gov.br/SefinNacional', parametrizacao: 'https://adn.producaorestrita.nfse.gov.br/parametrizacao',
  });
});

test('sefinUrl lays out each operation; the convênio goes to the parametrização host', (t) => {
  const b = authorityBases(2);
  const chave = '3550308'.padEnd(50, '1');
  t.is(sefinUrl(b, 'submit'), 'https://sefin.producaorestrita.nfse.gov.br/SefinNacional/nfse');
  t.is(sefinUrl(b, 'nfse', { chaveAcesso: chave }), `https://sefin.producaorestrita.nfse.gov.br/SefinNacional/nfse/${chave}`);
  t.is(sefinUrl(b, 'dps', { idDps: 'DPS1' }), 'https://sefin.producaorestrita.nfse.gov.br/SefinNacional/dps/DPS1');
  t.is(sefinUrl(b, 'eventos', { chaveAcesso: chave }), `https://sefin.producaorestrita.nfse.gov.br/SefinNacional/nfse/${chave}/eventos`);
  t.is(sefinUrl(b, 'evento', { chaveAcesso: chave, tipoEvento: '101101', numSeqEvento: 1 }), `https://sefin.producaorestrita.nfse.gov.br/SefinNacional/nfse/${chave}/eventos/101101/1`);
  t.is(sefinUrl(b, 'convenio', { codigoMunicipio: '3550308' }), 'https://adn.producaorestrita.nfse.gov.br/parametrizacao/parametros_municipais/3550308/convenio');
});

test('sefinUrl encodes parameters and refuses a missing one; twinBases puts the same API under a base URL', (t) => {
  const b = twinBases('https://127.0.0.1:8443/');
  t.deepEqual(b, { sefin: 'https://127.0.0.1:8443/SefinNacional', parametrizacao: 'https://127.0.0.1:8443/parametrizacao' });
  t.is(sefinUrl(b, 'dps', { idDps: '../x?y' }), 'https://127.0.0.1:8443/SefinNacional/dps/..%2Fx%3Fy');
  t.throws(() => sefinUrl(b, 'nfse'), { message: /chaveAcesso/ });
});
