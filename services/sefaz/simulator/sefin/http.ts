import type { ServerResponse } from 'node:http';
import type { SigningMaterial } from '../../../../lib/issuer/types.js';
import { brasiliaDateTime } from '../../../../lib/sefaz/xml.js';
import type { SefinMessage } from '../../../../lib/sefin/results.js';
import { ruleMessage } from '../../../../lib/sefin/simulator/messages.js';
import { SIMULATOR_VER_APLIC } from '../../../../lib/sefin/simulator/nfse-xml.js';
import type { Signer } from '../../../../lib/sign/signer.js';
import type { FaultBoard } from '../faults.js';
import type { RouteContext } from '../router.js';
import type { SignerCertificates } from '../signer-certificates.js';
import type { SefinStore } from './store.js';

/** What every Sefin route of the simulator shares: its dependencies and the JSON answers. */
export interface SefinSimulatorDeps {
  store: SefinStore;
  faults: FaultBoard;
  now(): Date;
  /** Signs the NFS-e and events Sefin generates. */
  signing: SigningMaterial;
  /** IBGE codes of municipalities without convênio: their DPS get E0037. */
  nonAdherent: ReadonlySet<string>;
  /** The certificates of received signatures, parsed once each (the simulator's memo, shared with its SEFAZ side). */
  certificates: SignerCertificates;
}

export interface SefinContext {
  deps: SefinSimulatorDeps;
  signer: Signer;
  clientCnpj: string | null;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

/** The envelope every Sefin answer carries. */
export function head(tpAmb: number, now: Date): Record<string, unknown> {
  return { tipoAmbiente: tpAmb, versaoAplicativo: SIMULATOR_VER_APLIC, dataHoraProcessamento: brasiliaDateTime(now) };
}

export function rejection(res: ServerResponse, tpAmb: number, now: Date, erros: SefinMessage[], extra: Record<string, unknown> = {}): void {
  json(res, 400, { ...head(tpAmb, now), ...extra, erros: erros.map((e) => ({ Codigo: e.codigo, Descricao: e.descricao, Complemento: e.complemento ?? null })) });
}

/** The JSON body, or null after answering E1226 (the request itself is not readable). */
export async function jsonBody(ctx: RouteContext, now: Date): Promise<Record<string, unknown> | null> {
  let body: unknown;
  try {
    body = JSON.parse(await ctx.body());
  } catch {
    body = null;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    rejection(ctx.res, 2, now, [ruleMessage('E1226', 'corpo da requisição não é um objeto JSON')]);
    return null;
  }
  return body as Record<string, unknown>;
}

