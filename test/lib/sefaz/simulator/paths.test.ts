import test from 'ava';
import { resolvePath, servesUf, soapPathPattern } from '../../../../lib/sefaz/simulator/paths.js';

test('resolvePath: real paths case-insensitively, the Host choosing between authorizers that share a path', (t) => {
  t.deepEqual(resolvePath('/ws/NFeStatusServico4.ASMX', undefined), { service: 'NFeStatusServico4', authorizers: ['SP'], model: null }, 'NF-e and NFC-e of SP share the path');
  t.like(resolvePath('/ws/NfeStatusServico/NfeStatusServico4.asmx', 'nfe-homologacao.svrs.rs.gov.br:443'), { service: 'NFeStatusServico4', authorizers: ['SVRS'] });
  t.like(resolvePath('/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx', 'hom1.nfe.fazenda.gov.br'), { authorizers: ['AN'] });
  t.like(resolvePath('/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx', 'hom.sefazvirtual.fazenda.gov.br'), { authorizers: ['SVAN'] });
  t.deepEqual(resolvePath('/NFeRecepcaoEvento4/NFeRecepcaoEvento4.asmx', '127.0.0.1')!.authorizers.sort(), ['AN', 'SVAN']);
  t.is(resolvePath('/nope', undefined), null);
});

test('resolvePath: the aliases /ws/<UF>/<Service>.asmx and /ws/<Service>.asmx spelled as the service', (t) => {
  t.deepEqual(resolvePath('/ws/MG/NFeAutorizacao4.asmx', undefined), { service: 'NFeAutorizacao4', authorizers: ['MG'], model: null });
  t.deepEqual(resolvePath('/ws/NFeAutorizacao4.asmx', undefined), { service: 'NFeAutorizacao4', authorizers: [], model: null });
});

test('resolvePath: SP\'s NFC-e paths, spelled like the UF-less alias, are SP\'s when the Host names SP', (t) => {
  t.deepEqual(resolvePath('/ws/NFeStatusServico4.asmx', 'homologacao.nfce.fazenda.sp.gov.br'), { service: 'NFeStatusServico4', authorizers: ['SP'], model: '65' });
  t.deepEqual(resolvePath('/ws/NFeConsultaProtocolo4.asmx', 'nfce.fazenda.sp.gov.br:443'), { service: 'NFeConsultaProtocolo4', authorizers: ['SP'], model: '65' });
  t.deepEqual(resolvePath('/ws/NFeStatusServico4.asmx', '127.0.0.1:8443'), { service: 'NFeStatusServico4', authorizers: [], model: null }, 'the simulator\'s own address: the alias');
  t.deepEqual(resolvePath('/ws/NFeStatusServico4.asmx', undefined), { service: 'NFeStatusServico4', authorizers: [], model: null });
});

test('servesUf: own UF, shared authorizers per model, SVC only for its contingency UFs, AN for 91', (t) => {
  t.true(servesUf(['SP'], '35', '55'));
  t.false(servesUf(['SP'], '31', '55'));
  t.true(servesUf(['SVRS'], '33', '55'));
  t.true(servesUf(['SVRS'], '29', '65'), 'BA NFC-e is SVRS');
  t.false(servesUf(['SVRS'], '29', '55'), 'BA NF-e is its own');
  t.true(servesUf(['SVAN'], '21', '55'));
  t.true(servesUf(['SVCAN'], '35', '55'));
  t.false(servesUf(['SVCAN'], '41', '55'));
  t.true(servesUf(['AN'], '91', '55'));
  t.true(servesUf([], '99', null));
});

test('soapPathPattern takes the aliases and the real paths, and leaves other routes alone', (t) => {
  const p = soapPathPattern();
  for (const ok of ['/ws/SP/NFeAutorizacao4.asmx', '/ws/nfeautorizacao4.asmx', '/NFE2/SERVICES/NFEAUTORIZACAO4', '/nfe/NFeStatusServico4']) t.true(p.test(ok), ok);
  for (const no of ['/SefinNacional/nfse', '/__admin/faults', '/ws/SP/x/y.asmx']) t.false(p.test(no), no);
});
