import type { Context } from 'moleculer';
import { DomainError } from '../../lib/errors/index.js';

/**
 * Who reads a partner's documents, and what an ek_test_ key may see of them (API.md, API key rule
 * 3: it operates only issuers in homologation or marked sandbox). A test key reads what was
 * emitted in homologation, whatever its issuer became since; a document emitted in production only
 * when its issuer is sandbox (v1.issuer.resolve judges: 403 CHAVE_TESTE_EMISSOR_PRODUCAO). A live
 * key or a session reads every document of its partner. Writes are judged by the issuer's own
 * rule (v1.issuer.forEmission, the events' issuer check), not here.
 */
export interface Reader {
  partnerId: string;
  /** Throws 403 unless the reader may see documents of `issuerId` emitted in production; absent: it may. */
  production?: (issuerId: string) => Promise<{ sandbox: boolean }>;
}

type DocumentCtx = Context<unknown, { caller?: { partnerId?: string | null; keyKind?: 'live' | 'test' | null } }>;

/** The caller's partner and key kind; a credential without a partner is 403 (every document route). */
export function partnerOf(ctx: DocumentCtx): { partnerId: string; keyKind: 'live' | 'test' | null } {
  const caller = ctx.meta.caller;
  if (!caller?.partnerId) throw new DomainError('FORBIDDEN', undefined, 'Credencial sem parceiro: emissão e consulta de documentos exigem um parceiro.');
  return { partnerId: caller.partnerId, keyKind: caller.keyKind ?? null };
}

/** The caller's partner (partnerOf) and, for a test key, its production rule. */
export function readerOf(ctx: DocumentCtx): Reader {
  const { partnerId, keyKind } = partnerOf(ctx);
  if (keyKind !== 'test') return { partnerId };
  return {
    partnerId,
    production: (issuerId) => ctx.call<{ sandbox: boolean }, object>('v1.issuer.resolve', { partnerId, issuerId, keyKind: 'test' }),
  };
}

/**
 * 403 when the reader may not see this document (see Reader). A production document of an issuer
 * back in homologation is still a production document: only a sandbox issuer opens it.
 */
export async function checkReadable(reader: Reader, doc: { issuerId: string; environment: 1 | 2 }): Promise<void> {
  if (doc.environment !== 1 || !reader.production) return;
  if (!(await reader.production(doc.issuerId)).sandbox) throw new DomainError('CHAVE_TESTE_EMISSOR_PRODUCAO');
}

/**
 * The environment a list shows the reader: every one, or for a test key homologation only, unless
 * it names a sandbox issuer (an issuer in production that is not sandbox: 403).
 */
export async function listedEnvironment(reader: Reader, issuerId: string | undefined): Promise<2 | undefined> {
  if (!reader.production) return undefined;
  if (issuerId && (await reader.production(issuerId)).sandbox) return undefined;
  return 2;
}
