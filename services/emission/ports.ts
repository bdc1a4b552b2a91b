import type { Context, ServiceBroker } from 'moleculer';
import { DomainError, type ErrorCode } from '../../lib/errors/index.js';
import type { IssuerSnapshot, SigningMaterial } from '../../lib/issuer/types.js';
import type { Model } from '../../lib/nfe/types.js';
import type { AuthorizationResult, ConsultResult } from '../../lib/sefaz/results.js';

/**
 * The exact actions the emission service calls on other services, typed in one place so the
 * contract with issuer and sefaz reads at a glance.
 */
type Caller = Pick<ServiceBroker, 'call'> | Pick<Context, 'call'>;

export interface ForEmissionParams {
  partnerId: string;
  issuerId?: string;
  model: Model;
  keyKind: 'live' | 'test' | null;
}

/** Selection (400 several issuers, 404 other partner, 403 test key on production) and preflight (422). */
export async function issuerForEmission(c: Caller, params: ForEmissionParams): Promise<IssuerSnapshot> {
  const res = await (c.call as any)('v1.issuer.forEmission', params) as { issuer: IssuerSnapshot };
  return res.issuer;
}

export interface IssuerForEmission {
  issuer: IssuerSnapshot;
  /** The preflight refusal (422) to throw once validation and the business rules passed; null when ready. */
  preflight: DomainError | null;
}

/**
 * Selection errors (400/404/403) throw; the preflight refusal is reported, not thrown, so the
 * emission path keeps the spec's order: issuer → validation (400) → rules (422) → preflight (422).
 */
export async function issuerWithPreflight(c: Caller, params: ForEmissionParams): Promise<IssuerForEmission> {
  const res = await (c.call as any)('v1.issuer.forEmission', { ...params, preflight: 'report' }) as {
    issuer: IssuerSnapshot;
    preflight: { type: string; data: Record<string, unknown> | null; message: string } | null;
  };
  const p = res.preflight;
  return { issuer: res.issuer, preflight: p ? new DomainError(p.type as ErrorCode, p.data ?? undefined, p.message) : null };
}

export function signingMaterial(c: Caller, issuerId: string): Promise<SigningMaterial> {
  return (c.call as any)('v1.issuer.signingMaterial', { issuerId });
}

export interface AuthorizeParams {
  issuerId: string;
  uf: string;
  model: Model;
  ambiente: 1 | 2;
  signedNfeXml: string;
  accessKey: string;
}

/**
 * Transmission. A call that throws (service missing, broker timeout) is mapped to the typed union:
 * "no node to call" certainly sent nothing; anything else may have reached the authority.
 */
export async function authorize(c: Caller, params: AuthorizeParams): Promise<AuthorizationResult> {
  try {
    return await (c.call as any)('v1.sefaz.authorize', params, { retries: 0 });
  } catch (err: any) {
    const name = String(err?.name ?? err?.type ?? '');
    if (name === 'ServiceNotFoundError' || name === 'ServiceNotAvailableError' || err?.type === 'SERVICE_NOT_FOUND' || err?.type === 'SERVICE_NOT_AVAILABLE') {
      return { kind: 'failed', reason: 'connect', detail: 'serviço sefaz indisponível' };
    }
    return { kind: 'unknown', reason: 'timeout-after-send', detail: String(err?.message ?? err) };
  }
}

export interface ConsultParams {
  issuerId: string;
  uf: string;
  model: Model;
  ambiente: 1 | 2;
  accessKey: string;
}

export async function consult(c: Caller, params: ConsultParams): Promise<ConsultResult> {
  try {
    return await (c.call as any)('v1.sefaz.consult', params);
  } catch (err: any) {
    return { kind: 'failed', reason: 'connect', detail: String(err?.message ?? err) };
  }
}
