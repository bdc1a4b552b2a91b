import type { Context } from 'moleculer';
import type { CallerMeta } from '../shared/caller.js';
import { DomainError } from '../../lib/errors/index.js';

/** Partner of the HTTP caller (API.md: partner-scoped routes never take it from the body). */
export function partnerOf(ctx: Context<any, CallerMeta>): string {
  const partnerId = ctx.meta.caller?.partnerId;
  if (!partnerId) throw new DomainError('FORBIDDEN', undefined, 'Esta rota exige uma credencial de parceiro.');
  return partnerId;
}
