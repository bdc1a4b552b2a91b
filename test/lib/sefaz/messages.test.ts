import test from 'ava';
import { validateXml } from '../../../lib/xml/xsd.js';
import { NFE_SCHEMAS } from '../../../lib/xml/schemas.js';
import { verifyXmlSignature } from '../../../lib/sign/verify.js';
import * as M from '../../../lib/sefaz/messages.js';
import { createA1, createCa } from '../../support/certificates.js';
import { signerFor } from '../../support/xml-sign.js';

const a1 = createA1(createCa(), { cnpj: '12345678000195' });
const sign = signerFor(a1);
const key = '35260112345678000195550010000001231234567890';
const ok = { valid: true, errors: [] };

test('consSitNFe, consStatServ and consReciNFe validate against the official XSD', (t) => {
  t.deepEqual(validateXml(NFE_SCHEMAS.consSitNFe, M.buildConsSitNFe({ ambiente: 2, accessKey: key })), ok);
  t.deepEqual(validateXml(NFE_SCHEMAS.consStatServ, M.buildConsStatServ({ ambiente: 1, cUF: '35' })), ok);
  t.deepEqual(validateXml(NFE_SCHEMAS.consReciNFe, M.buildConsReciNFe({ ambiente: 2, receipt: '351000000000001' })), ok);
});

test('buildEnviNFe refuses an idLote that is not 1-15 digits', (t) => {
  t.throws(() => M.buildEnviNFe({ idLote: 'abc', signedNfeXml: '<NFe/>' }));
});

test('a signed cancellation event validates against envEventoCancNFe and its signature verifies', async (t) => {
  const input = { idLote: '1', cOrgao: '35', ambiente: 2 as const, cnpj: '12345678000195', accessKey: key, sequence: 1, at: new Date('2026-01-10T12:00:00Z'),
    detail: { type: 'cancelamento' as const, protocol: '135260000000001', justificativa: 'Erro de digitacao & teste' } };
  const { xml, signedEvento } = await M.buildEnvEvento(input, sign);
  t.deepEqual(validateXml(NFE_SCHEMAS.envEventoCancNFe, xml), ok);
  t.true(xml.includes(`<infEvento Id="ID110111${key}01">`));
  t.true(xml.includes('<dhEvento>2026-01-10T09:00:00-03:00</dhEvento>'));
  t.true(verifyXmlSignature(signedEvento, `ID110111${key}01`).valid);
});

test('a signed CC-e validates against envCCe with the fixed xCondUso', async (t) => {
  const { xml } = await M.buildEnvEvento({ idLote: '2', cOrgao: '35', ambiente: 2, cnpj: '12345678000195', accessKey: key, sequence: 3, at: new Date(),
    detail: { type: 'cce', correcao: 'Endereco de entrega correto: Rua 4' } }, sign);
  t.deepEqual(validateXml(NFE_SCHEMAS.envCCe, xml), ok);
});

test('a signed inutNFe validates and its Id concatenates the fields', async (t) => {
  const input = { cUF: '35', ambiente: 2 as const, ano: '26', cnpj: '12345678000195', model: '55' as const, serie: 3, inicio: 53, fim: 60, justificativa: 'Falha no sistema de numeracao' };
  t.is(M.inutilizacaoId(input), 'ID352612345678000195550030000000530000000 60'.replace(' ', ''));
  const xml = await M.buildInutNFe(input, sign);
  t.deepEqual(validateXml(NFE_SCHEMAS.inutNFe, xml), ok);
  t.true(verifyXmlSignature(xml, M.inutilizacaoId(input)).valid);
});
