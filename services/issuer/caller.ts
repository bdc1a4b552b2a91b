import type { Context } from 'moleculer';
import type { CallerMeta } from '../shared/caller.js';
import { DomainError } from '../../lib/errors/index.js';

/** Partner of the HTTP caller (API.md: partner-scoped routes never take it from the body). */
export function partnerOf(ctx: Context<any, CallerMeta>): string {
  const partnerId = ctx.meta.caller?.partnerId;
  if (!partnerId) throw new DomainError('FORBIDDEN', undefined, 'Esta rota exige uma credencial de parceiro.');
  return partnerId;
}

/** Kind of API key of the HTTP caller ('test' for ek_test_), null for a JWT. */
export function keyKindOf(ctx: Context<any, CallerMeta>): 'live' | 'test' | null {
  return ctx.meta.caller?.keyKind ?? null;
}
