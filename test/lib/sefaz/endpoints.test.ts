import test from 'ava';
import { authorityFor, endpointFor } from '../../../lib/sefaz/endpoints.js';
import { UF_CODES } from '../../../lib/nfe/access-key.js';
import { SERVICE_NAMES } from '../../../lib/sefaz/services.js';

test('endpointFor gives the UF own authority for SP NF-e in production', (t) => {
  t.deepEqual(endpointFor({ uf: 'SP', model: '55', ambiente: 1, service: 'NFeAutorizacao4' }),
    { url: 'https://nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx', authority: 'SP', service: 'NFeAutorizacao4' });
});

test('endpointFor sends NFC-e of BA to SVRS and NF-e of MA to SVAN', (t) => {
  t.is(endpointFor({ uf: 'BA', model: '65', ambiente: 2, service: 'NFeStatusServico4' }).authority, 'SVRS');
  t.regex(endpointFor({ uf: 'BA', model: '65', ambiente: 2, service: 'NFeStatusServico4' }).url, /^https:\/\/nfce-homologacao\.svrs\.rs\.gov\.br\//);
  t.is(endpointFor({ uf: 'MA', model: '55', ambiente: 1, service: 'NFeConsultaProtocolo4' }).authority, 'SVAN');
});

test('endpointFor in contingency uses SVC-AN or SVC-RS by UF', (t) => {
  t.is(endpointFor({ uf: 'SP', model: '55', ambiente: 1, service: 'NFeAutorizacao4', contingency: true }).authority, 'SVCAN');
  t.is(endpointFor({ uf: 'PR', model: '55', ambiente: 2, service: 'NFeAutorizacao4', contingency: true }).authority, 'SVCRS');
});

test('authorityFor refuses SVC for NFC-e and unknown UFs', (t) => {
  t.throws(() => authorityFor('SP', '65', true), { message: /only for NF-e/ });
  t.throws(() => authorityFor('XX', '55'), { message: /no authority for UF XX/ });
});

test('the endpoint table covers every UF, model, environment and service (SVC for NF-e too)', (t) => {
  const missing: string[] = [];
  for (const uf of Object.values(UF_CODES)) {
    for (const model of ['55', '65'] as const) {
      for (const ambiente of [1, 2] as const) {
        for (const service of SERVICE_NAMES) {
          for (const contingency of model === '55' ? [false, true] : [false]) {
            try { endpointFor({ uf, model, ambiente, service, contingency }); } catch { missing.push(`${uf}/${model}/${ambiente}/${service}/${contingency}`); }
          }
        }
      }
    }
  }
  t.deepEqual(missing, []);
});
