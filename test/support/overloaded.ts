import type { ExecutionContext } from 'ava';
import type { HttpResult } from './stack.js';
import type { Clock } from '../../services/shared/clock.js';

/**
 * The whole 503 of a request refused before numbering because its issuer's numbering slots or
 * in-flight places had no room (services/emission/numbering-slots.ts): the envelope, its request id
 * and timestamp, and the issuer it names.
 */
export function assertOverloaded(t: ExecutionContext, res: HttpResult, clock: Clock, instance: string, issuerId: string): void {
  t.is(res.status, 503, res.text);
  const { requestId, timestamp, ...error } = res.body.error;
  t.is(requestId, res.headers.get('x-request-id'));
  t.is(timestamp, clock.now().toISOString());
  t.deepEqual(error, {
    type: 'https://errors.test/EMISSOR_SOBRECARREGADO', title: 'Service Unavailable', status: 503,
    detail: 'Emissões simultâneas demais deste emissor; nenhum número foi usado: repita a requisição em instantes.',
    details: { issuerId, motivo: 'queue-full' }, instance,
  });
}
