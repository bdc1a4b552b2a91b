import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfeBody, anItem } from '../support/nfe-factories.js';
import { verifyDfe } from '../support/verify-dfe.js';
import { integratorWithA1 } from '../support/e2e.js';
import type { Destinatario, IcmsUfDest, Item } from '../../lib/nfe/types.js';

/**
 * Issue 22, item 2, over HTTP with every service real and the authority simulator (which rejects
 * the interstate consumer sale without ICMSUFDest with 694): the README's NF-e sent by an SP
 * issuer to a consumer's CPF in RJ gets the partilha computed, is authorized, and its nfeProc
 * passes the official XSD and xmlsec1; the group where it does not apply, or incoherent, is
 * refused 422 before numbering.
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;

test.before(async () => {
  stack = await startStack();
  ({ headers, issuerId } = await integratorWithA1(stack));
});
test.after.always(async () => {
  await stack?.stop();
});

const CONSUMER_RJ: Destinatario = {
  cnpjCpf: '52998224725', nome: 'Maria da Silva', indicadorIE: 9, email: 'maria@example.com',
  endereco: { logradouro: 'Rua das Laranjeiras', numero: '45', bairro: 'Laranjeiras', codigoMunicipio: '3304557', municipio: 'Rio de Janeiro', uf: 'RJ', cep: '22240003' },
};
/** The README's item (2 × 50.00) sold to another UF: CFOP 6102 and the 12% interstate ICMS. */
const interstateItem = (over: Partial<Item> = {}): Item => anItem({ cfop: '6102', icms: { origem: 0, cst: '00', vBC: 100, pICMS: 12, vICMS: 12 }, ...over });
const ecommerceSale = (item: Item = interstateItem()) => aValidNfeBody({ indPres: 2, destinatario: CONSUMER_RJ, items: [item] });
const numbersUsed = async () => (await stack.knex('emission.documents').where({ issuer_id: issuerId, model: '55' }).orderBy('number').select('number')).map((r: { number: number }) => r.number);

test.serial('the e-commerce sale SP → consumer CPF in RJ is authorized with ICMSUFDest computed, its totals in ICMSTot, and passes verify-dfe', async (t) => {
  const res = await stack.request('POST', '/v1/nfe', { headers, body: ecommerceSale() });
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { status: 'AUTHORIZED', number: 1, amount: '100.00' });

  const xml = await stack.request('GET', `/v1/nfe/${res.body.data.id}/xml`, { headers });
  t.is(xml.status, 200);
  t.true(xml.text.includes('<idDest>2</idDest>'));
  t.true(xml.text.includes('<indFinal>1</indFinal>'));
  // 100.00 × (RJ 20% − 12%) = 8.00 to RJ, FECP 2% = 2.00, nothing to SP (data/icms, base única).
  t.true(xml.text.includes('</COFINS><ICMSUFDest><vBCUFDest>100.00</vBCUFDest><vBCFCPUFDest>100.00</vBCFCPUFDest><pFCPUFDest>2.00</pFCPUFDest>'
    + '<pICMSUFDest>20.00</pICMSUFDest><pICMSInter>12.00</pICMSInter><pICMSInterPart>100.00</pICMSInterPart>'
    + '<vFCPUFDest>2.00</vFCPUFDest><vICMSUFDest>8.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet></ICMSUFDest></imposto>'), xml.text);
  t.true(xml.text.includes('<vICMSDeson>0.00</vICMSDeson><vFCPUFDest>2.00</vFCPUFDest><vICMSUFDest>8.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet><vFCP>'));
  t.true(xml.text.includes('<vNF>100.00</vNF>'), 'the partilha is not charged to the buyer');
  const independent = verifyDfe({ nfeProc: xml.text });
  t.true(independent.ok, independent.output);
});

test.serial('a coherent group sent by the partner (product at 25% in RJ) is kept and authorized', async (t) => {
  const group: IcmsUfDest = { vBCUFDest: 100, pICMSUFDest: 25, pFCPUFDest: 2, pICMSInter: 12, pICMSInterPart: 100, vFCPUFDest: 2, vICMSUFDest: 13, vICMSUFRemet: 0 };
  const res = await stack.request('POST', '/v1/nfe', { headers, body: ecommerceSale(interstateItem({ icmsUfDest: group })) });
  t.is(res.status, 201, res.text);
  t.like(res.body.data, { status: 'AUTHORIZED', number: 2 });
  const xml = await stack.request('GET', `/v1/nfe/${res.body.data.id}/xml`, { headers });
  t.true(xml.text.includes('<pICMSUFDest>25.00</pICMSUFDest>'));
  t.true(xml.text.includes('<vICMSUFDest>13.00</vICMSUFDest><vICMSUFRemet>0.00</vICMSUFRemet><vFCP>'));
  t.true(verifyDfe({ nfeProc: xml.text }).ok);
});

test.serial('the group on an internal sale answers 422 ICMS_UF_DEST_INDEVIDO (SEFAZ 695) and takes no number', async (t) => {
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ items: [anItem({ icmsUfDest: { pICMSUFDest: 18 } })] }) });
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/ICMS_UF_DEST_INDEVIDO', title: 'Unprocessable Entity', status: 422,
      detail: 'Informado indevidamente o grupo de ICMS para a UF de destino (icmsUfDest): a partilha só se aplica à NF-e interestadual (idDest 2) para consumidor final (indFinal 1) não contribuinte (indicadorIE 9).',
      details: {
        item: 0, campos: ['items[0].icmsUfDest'], modelo: '55', idDest: 1, indFinal: 1, indicadorIE: 9,
        motivo: 'a partilha (EC 87/2015) só se aplica à NF-e interestadual para consumidor final não contribuinte; retire o grupo',
      },
      instance: '/v1/nfe', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is(res.status, 422);
  t.deepEqual(await numbersUsed(), [1, 2]);
});

test.serial('an incoherent group answers 422 ICMS_UF_DEST_INVALIDO naming the field, and the next note takes the next number', async (t) => {
  const res = await stack.request('POST', '/v1/nfe', { headers, body: ecommerceSale(interstateItem({ icmsUfDest: { vICMSUFDest: 9 } })) });
  t.is(res.status, 422, res.text);
  t.deepEqual(res.body.error, {
    type: 'https://errors.test/ICMS_UF_DEST_INVALIDO', title: 'Unprocessable Entity', status: 422,
    detail: 'Grupo de ICMS para a UF de destino (icmsUfDest) incoerente: confira alíquotas, base e valores, ou omita o grupo para o serviço calculá-lo.',
    details: {
      item: 0, campos: ['items[0].icmsUfDest.vICMSUFDest'], esperado: '8.00', recebido: '9.00',
      motivo: 'vBCUFDest × (pICMSUFDest − pICMSInter) = 100.00 × (20.00% − 12.00%)',
    },
    instance: '/v1/nfe', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
  });
  t.deepEqual(await numbersUsed(), [1, 2]);
  const next = await stack.request('POST', '/v1/nfe', { headers, body: ecommerceSale() });
  t.is(next.status, 201, next.text);
  t.is(next.body.data.number, 3);
});

test.serial('the layout name ICMSUFDest answers 400 pointing to icmsUfDest', async (t) => {
  const body: any = ecommerceSale();
  body.items[0].ICMSUFDest = {};
  const res = await stack.request('POST', '/v1/nfe', { headers, body });
  t.is(res.status, 400, res.text);
  t.like(res.body.error.details.camposDesconhecidos[0], { campo: 'ICMSUFDest', caminho: 'items[0].ICMSUFDest', motivo: "No leiaute existe com outro nome: nesta API use 'icmsUfDest'." });
});
