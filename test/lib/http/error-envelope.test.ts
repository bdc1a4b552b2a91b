import test from 'ava';
import { renderError, retryAfterSeconds } from '../../../lib/http/error-envelope.js';
import { DomainError } from '../../../lib/errors/index.js';

const ctx = { errorsBase: 'https://errors.test', instance: '/v1/nfe', requestId: 'req-12345678', timestamp: '2026-11-22T12:00:00.000Z' };

test('renderError uses a catalogued code as the slug and keeps its status', (t) => {
  const { status, body } = renderError(new DomainError('CFOP_IDDEST_DIVERGENTE', { items: [0, 2] }), ctx);
  t.is(status, 422);
  t.deepEqual(body, {
    error: {
      type: 'https://errors.test/CFOP_IDDEST_DIVERGENTE', title: 'Unprocessable Entity', status: 422,
      detail: 'Itens com CFOP de destinos diferentes.', details: { items: [0, 2] },
      instance: '/v1/nfe', requestId: 'req-12345678', timestamp: '2026-11-22T12:00:00.000Z',
    },
  });
});

test('renderError turns array-shaped validation failures into VALIDATION_ERROR 400 with errors[]', (t) => {
  const { status, body } = renderError({ code: 422, type: 'VALIDATION_ERROR', message: 'Parameters validation error!', data: [{ field: 'nome', message: "O campo 'nome' é obrigatório.", type: 'required' }] }, ctx);
  t.is(status, 400);
  t.is(body.error.type, 'https://errors.test/VALIDATION_ERROR');
  t.deepEqual(body.error.errors, [{ field: 'nome', message: "O campo 'nome' é obrigatório." }]);
  t.false('erros' in body.error);
});

test('renderError replaces a code outside the catalogue with RECUSA_NAO_CATALOGADA, keeping the status', (t) => {
  const { status, body } = renderError({ code: 409, type: 'SOMETHING_PRIVATE', message: 'x' }, ctx);
  t.is(status, 409);
  t.is(body.error.type, 'https://errors.test/RECUSA_NAO_CATALOGADA');
});

test('renderError maps an uncoded error by status and never leaks internal text on 5xx', (t) => {
  const { status, body } = renderError(new Error('connection string postgres://secret@db'), ctx);
  t.is(status, 500);
  t.is(body.error.type, 'https://errors.test/INTERNAL_ERROR');
  t.notRegex(body.error.detail, /secret/);
});

test('renderError maps framework timeouts and missing services to 504 and 503', (t) => {
  t.is(renderError({ code: 504, type: 'REQUEST_TIMEOUT', message: 'timeout' }, ctx).body.error.type, 'https://errors.test/GATEWAY_TIMEOUT');
  const unavailable = renderError({ code: 404, type: 'SERVICE_NOT_FOUND', message: 'Service v1.x not found' }, ctx);
  t.is(unavailable.status, 503);
  t.is(unavailable.body.error.type, 'https://errors.test/SERVICE_UNAVAILABLE');
});

test('renderError turns a path parameter that does not percent-decode (moleculer-web UNABLE_DECODE_PARAM) into BAD_REQUEST, not RECUSA_NAO_CATALOGADA', (t) => {
  const { status, body } = renderError({ code: 400, type: 'UNABLE_DECODE_PARAM', message: 'Bad request', data: { param: '%zz' } }, { ...ctx, instance: '/v1/nfe/%zz' });
  t.is(status, 400);
  t.deepEqual(body, {
    error: {
      type: 'https://errors.test/BAD_REQUEST', title: 'Bad Request', status: 400, detail: 'Parâmetro do caminho com codificação percentual inválida.',
      instance: '/v1/nfe/%zz', requestId: 'req-12345678', timestamp: '2026-11-22T12:00:00.000Z',
    },
  });
});

test('renderError carries a fiscal rejection as BAD_REQUEST with erros[] and no errors[]', (t) => {
  const err = new DomainError('BAD_REQUEST', { erros: [{ codigo: '539', descricao: 'Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso' }] }, 'Documento rejeitado pela autoridade fiscal.');
  const { status, body } = renderError(err, ctx);
  t.is(status, 400);
  t.is(body.error.type, 'https://errors.test/BAD_REQUEST');
  t.deepEqual(body.error.erros, [{ codigo: '539', descricao: 'Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso' }]);
  t.false('errors' in body.error);
  t.false('details' in body.error);
});

test('renderError gives a BAD_REQUEST with errors[] the slug VALIDATION_ERROR (rule 3), keeping its detail', (t) => {
  const err = new DomainError('BAD_REQUEST', { errors: [{ field: 'currentPassword', message: 'Senha atual incorreta.' }] }, 'Senha atual incorreta.');
  const { status, body } = renderError(err, ctx);
  t.is(status, 400);
  t.deepEqual(body, {
    error: {
      type: 'https://errors.test/VALIDATION_ERROR', title: 'Bad Request', status: 400, detail: 'Senha atual incorreta.',
      errors: [{ field: 'currentPassword', message: 'Senha atual incorreta.' }],
      instance: '/v1/nfe', requestId: 'req-12345678', timestamp: '2026-11-22T12:00:00.000Z',
    },
  });
});

test('renderError puts a domain 400 with field errors and unknown fields in errors[] and details', (t) => {
  const err = new DomainError('VALIDATION_ERROR', { errors: [{ field: 'itens', message: 'Campo desconhecido' }], details: { camposDesconhecidos: [{ campo: 'itens', caminho: 'itens', objeto: '', motivo: 'use items' }] } });
  const { body } = renderError(err, ctx);
  t.deepEqual(body.error.errors, [{ field: 'itens', message: 'Campo desconhecido' }]);
  t.deepEqual(body.error.details, { camposDesconhecidos: [{ campo: 'itens', caminho: 'itens', objeto: '', motivo: 'use items' }] });
});

test('renderError uses the status map for a 429 and a 401 without a catalogued type', (t) => {
  t.is(renderError({ code: 429, message: 'x' }, ctx).body.error.type, 'https://errors.test/RATE_LIMIT_EXCEEDED');
  t.is(renderError({ code: 401, message: 'x' }, ctx).body.error.type, 'https://errors.test/UNAUTHORIZED');
});

test('renderError answers a database outage 503 SERVICE_UNAVAILABLE, never 500, without its text', (t) => {
  for (const err of [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), new Error('Connection terminated unexpectedly'), { name: 'error', code: '57P01', message: 'terminating connection due to administrator command' }]) {
    const { status, body } = renderError(err, ctx);
    t.is(status, 503);
    t.deepEqual(body, {
      error: {
        type: 'https://errors.test/SERVICE_UNAVAILABLE', title: 'Service Unavailable', status: 503, detail: 'Serviço temporariamente indisponível.',
        instance: '/v1/nfe', requestId: 'req-12345678', timestamp: '2026-11-22T12:00:00.000Z',
      },
    });
  }
});

test('retryAfterSeconds: 1 for 429 (API.md), 5 for a 503, none otherwise', (t) => {
  t.is(retryAfterSeconds(429), 1);
  t.is(retryAfterSeconds(503), 5);
  t.is(retryAfterSeconds(500), undefined);
  t.is(retryAfterSeconds(504), undefined);
});
