import test from 'ava';
import { startStack, type Stack } from '../support/stack.js';
import { aValidNfceBody, aValidNfeBody } from '../support/nfe-factories.js';
import { verifyXmlSignature } from '../../lib/sign/verify.js';
import { integratorWithA1, SANDBOX_CSC } from '../support/e2e.js';

/**
 * Inutilização over HTTP with every service real and the authority simulator: a range ahead of
 * the sequence is homologated and the numbering skips it, a passthrough numero inside it and
 * overlapping or used ranges are refused, a lost answer is completed by repeating the request.
 * verify-dfe.sh has no ProcInutNFe schema, so its signature is checked with lib/sign/verify.ts.
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;

test.before(async () => {
  stack = await startStack();
  ({ headers, issuerId } = await integratorWithA1(stack, SANDBOX_CSC));
});
test.after.always(async () => {
  await stack?.stop();
});

const JUST = 'Numeracao reservada para o sistema legado';

test.serial('a range ahead of the sequence is homologated and the next emissions skip it', async (t) => {
  const first = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(first.body.data.number, 1, first.text);
  const res = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { issuerId, serie: 1, numeroInicial: 2, numeroFinal: 4, justificativa: JUST } });
  t.is(res.status, 201, res.text);
  const inut = res.body.data;
  t.like(inut, { issuerId, model: '55', serie: 1, numeroInicial: 2, numeroFinal: 4, justificativa: JUST, status: 'HOMOLOGATED', cStat: 102, ambiente: 2 });
  t.regex(inut.protocolo, /^\d{15}$/);
  t.truthy(await stack.knex('simulator.inutilizacoes').where({ inicio: 2, fim: 4, protocol: inut.protocolo }).first());

  const next = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(next.status, 201, next.text);
  t.like(next.body.data, { status: 'AUTHORIZED', number: 5 });

  const xml = await stack.request('GET', inut.links.xml, { headers });
  t.is(xml.status, 200);
  t.regex(xml.text, /^<ProcInutNFe[^>]*><inutNFe/);
  const id = /<infInut Id="(ID\d+)"/.exec(xml.text)![1]!;
  t.true(verifyXmlSignature(xml.text, id).valid);

  const listed = await stack.request('GET', `/v1/nfe/inutilizacao?issuerId=${issuerId}`, { headers });
  t.deepEqual(listed.body.data.items, [inut]);
  t.deepEqual((await stack.request('GET', '/v1/nfce/inutilizacao', { headers })).body.data.items, []);

  // The same range again: the existing result, 200, nothing sent.
  const again = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { numeroInicial: 2, numeroFinal: 4, justificativa: JUST } });
  t.is(again.status, 200, again.text);
  t.deepEqual(again.body.data, inut);
  t.is((await stack.knex('simulator.inutilizacoes').where({ inicio: 2 })).length, 1);
});

test.serial('an overlapping range, a used number and a passthrough numero inside a range are refused with their codes', async (t) => {
  const overlap = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { numeroInicial: 4, numeroFinal: 6, justificativa: JUST } });
  t.is(overlap.status, 409, overlap.text);
  t.is(overlap.body.error.type, 'https://errors.test/FAIXA_JA_INUTILIZADA');
  t.like(overlap.body.error.details.faixas, [{ numeroInicial: 2, numeroFinal: 4, status: 'HOMOLOGATED' }]);

  const used = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { numeroInicial: 5, numeroFinal: 9, justificativa: JUST } });
  t.is(used.status, 409, used.text);
  t.deepEqual(used.body.error.details, { numeros: [5], quantidade: 1 });
  t.is(used.body.error.type, 'https://errors.test/FAIXA_CONTEM_NUMERO_UTILIZADO');

  const passthrough = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ numero: 3 }) });
  t.is(passthrough.status, 409, passthrough.text);
  t.is(passthrough.body.error.type, 'https://errors.test/NUMERO_INUTILIZADO');
  t.like(passthrough.body.error.details, { numero: 3, serie: 1, numeroInicial: 2, numeroFinal: 4 });
  t.falsy(await stack.knex('emission.documents').where({ issuer_id: issuerId, model: '55', number: 3 }).first());
});

test.serial('range rules and body validation answer before the authority', async (t) => {
  const inverted = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { numeroInicial: 10, numeroFinal: 9, justificativa: JUST } });
  t.deepEqual(inverted.body, {
    error: {
      type: 'https://errors.test/FAIXA_INUTILIZACAO_INVERTIDA', title: 'Unprocessable Entity', status: 422, detail: 'numeroFinal deve ser maior ou igual a numeroInicial.',
      details: { numeroInicial: 10, numeroFinal: 9 }, instance: '/v1/nfe/inutilizacao', requestId: inverted.headers.get('x-request-id'), timestamp: inverted.body.error.timestamp,
    },
  });
  const big = await stack.request('POST', '/v1/nfce/inutilizacao', { headers, body: { numeroInicial: 100, numeroFinal: 10_100, justificativa: JUST } });
  t.is(big.status, 422);
  t.is(big.body.error.type, 'https://errors.test/FAIXA_INUTILIZACAO_EXCEDIDA');
  const short = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { numeroInicial: 100, numeroFinal: 100, justificativa: 'curta demais' } });
  t.is(short.status, 400);
  t.deepEqual(short.body.error.errors, [{ field: 'justificativa', message: "O campo 'justificativa' deve ter no mínimo 15 caracteres." }]);
  const reserved = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { serie: 900, numeroInicial: 100, numeroFinal: 100, justificativa: JUST } });
  t.is(reserved.status, 422);
  t.is(reserved.body.error.type, 'https://errors.test/SERIE_NAO_PERMITIDA');
  t.is(await stack.knex('simulator.inutilizacoes').count('* as n').first().then((r: any) => Number(r.n)), 1);
});

test.serial('NFC-e: a lost answer keeps the range reserved (503) and the same request completes it; numbering skips it', async (t) => {
  const sefaz: any = stack.nodes[0]!.getLocalService('v1.sefaz');
  sefaz.simulator.faults.add({ mode: 'down', service: 'NFeInutilizacao4', times: 1 });
  const body = { numeroInicial: 1, numeroFinal: 2, justificativa: JUST };
  const down = await stack.request('POST', '/v1/nfce/inutilizacao', { headers, body });
  t.is(down.status, 503, down.text);
  t.is(down.body.error.type, 'https://errors.test/AUTORIDADE_INDISPONIVEL');
  t.like(down.body.error.details, { numeroInicial: 1, numeroFinal: 2 });
  // Reserved meanwhile: the NFC-e numbering does not take 1 or 2.
  const note = await stack.request('POST', '/v1/nfce', { headers, body: aValidNfceBody() });
  t.is(note.body.data.number, 3, note.text);
  const done = await stack.request('POST', '/v1/nfce/inutilizacao', { headers, body });
  t.is(done.status, 201, done.text);
  t.like(done.body.data, { id: down.body.error.details.inutilizacaoId, model: '65', status: 'HOMOLOGATED', numeroInicial: 1, numeroFinal: 2 });
});

test.serial('an inutilização racing emissions of the same series never shares a number with a note', async (t) => {
  const before = await stack.knex('emission.number_sequences').where({ issuer_id: issuerId, model: '55', series: 1 }).first('next_number');
  const from = Number(before.next_number) + 2;
  const [inut, ...notes] = await Promise.all([
    stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { numeroInicial: from, numeroFinal: from + 2, justificativa: JUST } }),
    ...Array.from({ length: 5 }, () => stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() })),
  ]);
  for (const n of notes) t.is(n.status, 201, n.text);
  const numbers = notes.map((n) => n.body.data.number as number);
  t.is(new Set(numbers).size, 5);
  if (inut.status === 201) {
    t.deepEqual(numbers.filter((n) => n >= from && n <= from + 2), []);
  } else {
    t.is(inut.status, 409, inut.text);
    t.is(inut.body.error.type, 'https://errors.test/FAIXA_CONTEM_NUMERO_UTILIZADO');
  }
});
