import { DomainError, type ErrorCode } from '../../lib/errors/index.js';
import type { IssuerSnapshot, SigningMaterial } from '../../lib/issuer/types.js';
import type { Model } from '../../lib/nfe/types.js';
import { fromRateRecord, type ApproximateTaxRate, type RateRecord } from '../../lib/approximate-tax/rate.js';
import type { AuthorizationResult, ConsultResult, EventResult, InutilizacaoResult } from '../../lib/sefaz/results.js';
import { callFailure, errorText, type ActionCaller } from './action-caller.js';

/*
 * The exact actions the emission service calls on other services, typed in one place so the
 * contract with issuer and sefaz reads at a glance.
 */

export interface ForEmissionParams {
  partnerId: string;
  issuerId?: string;
  /** 'NFSe': the national-standard DPS, whose preflight asks for the inscrição municipal. */
  model: Model | 'NFSe';
  keyKind: 'live' | 'test' | null;
}

/** Selection (400 several issuers, 404 other partner, 403 test key on production) and preflight (422). */
export async function issuerForEmission(c: ActionCaller, params: ForEmissionParams): Promise<IssuerSnapshot> {
  const res = await c.call<{ issuer: IssuerSnapshot }>('v1.issuer.forEmission', params);
  return res.issuer;
}

export interface IssuerForEmission {
  issuer: IssuerSnapshot;
  /** Fingerprint of the installed certificate (null without one): the key of the material cache. */
  certificateFingerprint: string | null;
  /** The preflight refusal (422) to throw once validation and the business rules passed; null when ready. */
  preflight: DomainError | null;
}

/**
 * Selection errors (400/404/403) throw; the preflight refusal is reported, not thrown, so the
 * emission path keeps the spec's order: issuer → validation (400) → rules (422) → preflight (422).
 */
export async function issuerWithPreflight(c: ActionCaller, params: ForEmissionParams): Promise<IssuerForEmission> {
  const res = await c.call<{
    issuer: IssuerSnapshot;
    certificate?: { fingerprint: string } | null;
    preflight: { type: string; data: Record<string, unknown> | null; message: string } | null;
  }>('v1.issuer.forEmission', { ...params, preflight: 'report' });
  const p = res.preflight;
  return {
    issuer: res.issuer,
    certificateFingerprint: res.certificate?.fingerprint ?? null,
    preflight: p ? new DomainError(p.type as ErrorCode, p.data ?? undefined, p.message) : null,
  };
}

/**
 * The issuer's A1 material, fetched once per certificate and kept in this node's memory: a new
 * certificate has a new fingerprint, so the cache never serves a replaced one. This saves a round
 * trip per note and keeps the decrypted key off the transporter after the first note.
 */
const MATERIAL_CACHE_SIZE = 500;
const materials = new Map<string, SigningMaterial>();

export async function signingMaterial(c: ActionCaller, issuerId: string, fingerprint: string | null = null): Promise<SigningMaterial> {
  const key = fingerprint ? `${issuerId}:${fingerprint}` : null;
  const cached = key ? materials.get(key) : undefined;
  if (cached) return cached;
  const material = await c.call<SigningMaterial>('v1.issuer.signingMaterial', { issuerId });
  if (key && material.fingerprint === fingerprint) {
    if (materials.size >= MATERIAL_CACHE_SIZE) materials.delete(materials.keys().next().value!);
    materials.set(key, material);
  }
  return material;
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
export async function authorize(c: ActionCaller, params: AuthorizeParams): Promise<AuthorizationResult> {
  try {
    return await c.call<AuthorizationResult>('v1.sefaz.authorize', params, { retries: 0 });
  } catch (err) {
    return callFailure(err);
  }
}

export interface ConsultParams {
  issuerId: string;
  uf: string;
  model: Model;
  ambiente: 1 | 2;
  accessKey: string;
}

export async function consult(c: ActionCaller, params: ConsultParams): Promise<ConsultResult> {
  try {
    return await c.call<ConsultResult>('v1.sefaz.consult', params);
  } catch (err) {
    return { kind: 'failed', reason: 'connect', detail: errorText(err) };
  }
}

/**
 * The approximate-tax rate lines (Lei 12.741) of the issuer's UF for these NCMs on `day`, keyed by
 * NCM: one v1.classification.ratesFor call, made only for issuers that enable the display.
 */
export async function approximateRates(c: ActionCaller, uf: string, day: string, ncms: readonly string[]): Promise<Map<string, ApproximateTaxRate>> {
  const eight = [...new Set(ncms.filter((n) => n.length === 8))];
  const records = eight.length ? await c.call<RateRecord[]>('v1.classification.ratesFor', { uf, day, ncms: eight }) : [];
  return new Map(records.map((r) => [r.ncm, fromRateRecord(r)]));
}

export interface SendEventParams {
  issuerId: string;
  uf: string;
  model: Model;
  ambiente: 1 | 2;
  cnpj: string;
  accessKey: string;
  sequence: number;
  type: 'cancelamento' | 'cce';
  protocol?: string;
  justificativa?: string;
  correcao?: string;
}

/** Event transmission (cancellation, CC-e): sent once, never retried by the broker. */
export async function sendEvent(c: ActionCaller, params: SendEventParams): Promise<EventResult> {
  try {
    return await c.call<EventResult>('v1.sefaz.sendEvent', params, { retries: 0 });
  } catch (err) {
    return callFailure(err);
  }
}

export interface InutilizarParams {
  issuerId: string;
  uf: string;
  model: Model;
  ambiente: 1 | 2;
  cnpj: string;
  serie: number;
  inicio: number;
  fim: number;
  justificativa: string;
}

export async function inutilizar(c: ActionCaller, params: InutilizarParams): Promise<InutilizacaoResult> {
  try {
    return await c.call<InutilizacaoResult>('v1.sefaz.inutilizar', params, { retries: 0 });
  } catch (err) {
    return callFailure(err);
  }
}
