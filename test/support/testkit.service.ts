import type { ServiceSchema } from 'moleculer';
import { Errors } from 'moleculer';
import { DomainError } from '../../lib/errors/index.js';

/** Test-only routes that exercise every gateway behaviour (success, each error class, slow work). */
export function createTestKit(counters: Record<string, number> = {}): ServiceSchema {
  const bump = (name: string) => (counters[name] = (counters[name] ?? 0) + 1);
  return {
    name: 'kit',
    version: 1,
    settings: { rest: '/' },
    actions: {
      ok: { rest: 'GET /kit/ok', openapi: { summary: 'ok' }, handler: () => ({ hello: 'mundo' }) },
      publicOk: { rest: 'GET /kit/public', auth: 'none', handler: () => ({ open: true }) },
      create: {
        rest: 'POST /kit/things', httpStatus: 201,
        params: { $$strict: true, name: { type: 'string', min: 2, max: 10 }, valor: { type: 'decimal', intDigits: 13, fracDigits: 2, optional: true } },
        handler: (ctx: any) => ({ n: bump('create'), name: ctx.params.name }),
      },
      slow: {
        rest: 'POST /kit/slow', httpStatus: 201,
        async handler() { bump('slow'); await new Promise((r) => setTimeout(r, 400)); return { done: true }; },
      },
      refuse: { rest: 'POST /kit/refuse', handler: () => { bump('refuse'); throw new DomainError('CFOP_IDDEST_DIVERGENTE', { items: [0, 1] }); } },
      fiscal: { rest: 'POST /kit/fiscal', handler: () => { throw new DomainError('BAD_REQUEST', { erros: [{ codigo: '539', descricao: 'Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso' }] }, 'Documento rejeitado pela autoridade fiscal.'); } },
      unknownCode: { rest: 'GET /kit/private', handler: () => { throw new Errors.MoleculerClientError('nope', 409, 'SOMETHING_PRIVATE'); } },
      unavailable: { rest: 'GET /kit/unavailable', handler: () => { throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'Provedor de consulta indisponível.'); } },
      crash: { rest: 'GET /kit/crash', handler: () => { throw new Error('boom with secret postgres://u:p@h'); } },
      flaky: { rest: 'POST /kit/flaky', handler: () => { bump('flaky'); throw new Errors.MoleculerServerError('down', 503, 'SERVICE_UNAVAILABLE_X'); } },
      secret: { rest: 'POST /kit/secret', httpStatus: 201, idempotency: false, handler: () => ({ secret: Math.random().toString(36) }) },
      admin: { rest: 'GET /kit/admin', roles: ['SUPERADMIN'], handler: () => ({ admin: true }) },
      jwtOnly: { rest: 'GET /kit/jwt', auth: 'jwt', handler: () => ({ jwt: true }) },
      echoCaller: { rest: 'GET /kit/caller', handler: (ctx: any) => ({ partnerId: ctx.meta.caller.partnerId, requestId: ctx.requestID }) },
    },
  };
}
