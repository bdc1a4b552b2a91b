import test from 'ava';
import { startStack, type Stack } from '../../../support/stack.js';
import { aValidNfeBody } from '../../../support/nfe-factories.js';
import { integratorWithA1, SANDBOX_CSC } from '../../../support/e2e.js';

/**
 * Issue 19, rejections on demand: a partner exercises its handling of any authority rejection end
 * to end, through the API, with the documented trigger in a free text the note, the event or the
 * inutilização carries to the (homologation) simulator.
 */
let stack: Stack;
let headers: Record<string, string>;
let issuerId: string;

test.before(async () => {
  stack = await startStack();
  ({ headers, issuerId } = await integratorWithA1(stack, SANDBOX_CSC));
});
test.after.always(async () => { await stack?.stop(); });

test.serial('a note whose informacoesComplementares asks for 778 is rejected with it, verbatim', async (t) => {
  const res = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody({ informacoesComplementares: 'Pedido 12 SIMULAR_REJEICAO:778' }) });
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/BAD_REQUEST', title: 'Bad Request', status: 400,
      detail: '778 - Rejeição: Informado NCM inexistente',
      erros: [{ codigo: '778', descricao: 'Rejeição: Informado NCM inexistente' }],
      details: { invoiceId: res.body.error.details.invoiceId, status: 'REJECTED' },
      instance: '/v1/nfe', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is(res.status, 400);
  t.is((await stack.request('GET', `/v1/nfe/${res.body.error.details.invoiceId}`, { headers })).body.data.status, 'REJECTED');
});

test.serial('a cancellation whose justificativa asks for 490 is refused with it; the note stays AUTHORIZED', async (t) => {
  const emitted = await stack.request('POST', '/v1/nfe', { headers, body: aValidNfeBody() });
  t.is(emitted.status, 201, emitted.text);
  const justificativa = 'Teste de rejeicao SIMULAR_REJEICAO:490';
  const res = await stack.request('POST', `/v1/nfe/${emitted.body.data.id}/cancelamento`, { headers, body: { justificativa } });
  t.is(res.status, 422, res.text);
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/EVENTO_REJEITADO', title: 'Unprocessable Entity', status: 422,
      detail: 'Evento rejeitado pela autoridade fiscal: 490 - Rejeição: CPF informado inválido (DV ou zeros)',
      details: { cStat: 490, xMotivo: 'Rejeição: CPF informado inválido (DV ou zeros)', eventoId: res.body.error.details.eventoId, tipo: 'cancelamento', sequencia: 1 },
      instance: `/v1/nfe/${emitted.body.data.id}/cancelamento`, requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  t.is((await stack.request('GET', `/v1/nfe/${emitted.body.data.id}`, { headers })).body.data.status, 'AUTHORIZED');
});

test.serial('an inutilização whose justificativa asks for 245 is refused with it and frees the range', async (t) => {
  const body = { issuerId, serie: 1, numeroInicial: 500, numeroFinal: 501, justificativa: 'Teste de rejeicao SIMULAR_REJEICAO:245' };
  const res = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body });
  t.is(res.status, 422, res.text);
  t.deepEqual(res.body, {
    error: {
      type: 'https://errors.test/INUTILIZACAO_REJEITADA', title: 'Unprocessable Entity', status: 422,
      detail: 'Inutilização rejeitada pela autoridade fiscal: 245 - Rejeição: CNPJ Emitente não cadastrado',
      details: { cStat: 245, xMotivo: 'Rejeição: CNPJ Emitente não cadastrado', inutilizacaoId: res.body.error.details.inutilizacaoId, numeroInicial: 500, numeroFinal: 501 },
      instance: '/v1/nfe/inutilizacao', requestId: res.headers.get('x-request-id'), timestamp: res.body.error.timestamp,
    },
  });
  const again = await stack.request('POST', '/v1/nfe/inutilizacao', { headers, body: { ...body, justificativa: 'Numeracao pulada por falha do sistema' } });
  t.is(again.status, 201, again.text);
});
