/**
 * What a call to Sefin Nacional (the NFS-e national standard authority) can come to, as closed
 * unions: the emission service decides an NFS-e's state from `kind` alone, as it does for NF-e
 * (lib/sefaz/results.ts), and the same split holds: `failed` means the request certainly did not
 * reach Sefin (safe to send again), `unknown` means it may have been processed (consult by idDps,
 * never resend blindly).
 *
 * These are the results of the `v1.sefaz.nfse*` actions; the transport (REST + JSON over mutual TLS
 * with the issuer's A1, gzip + base64 XML) lives in services/sefaz.
 */
import type { InfrastructureReason } from '../sefaz/results.js';

/** One message of Sefin's `erros[]` / `alertas[]`, verbatim (Codigo, Descricao, Complemento). */
export interface SefinMessage {
  codigo: string;
  descricao: string;
  complemento?: string;
}

/** Where an NFS-e call goes: the issuer (its A1 authenticates the TLS session) and the environment. */
export interface SefinTarget {
  issuerId: string;
  /** tpAmb: 1 produção, 2 produção restrita (homologação). */
  ambiente: 1 | 2;
  sandbox?: boolean;
  /** Overrides the base URL (tests, a partner's own Sefin twin). */
  endpointUrl?: string | null;
}

export interface IssuedNfse {
  /** chaveAcesso of the NFS-e: 50 digits, assigned by Sefin. */
  chaveAcesso: string;
  idDps: string;
  /** nNFSe as written in the NFS-e XML. */
  numeroNfse: string;
  /** The NFS-e XML (signed by Sefin), decompressed. */
  nfseXml: string;
  /** dhProc of the NFS-e, ISO 8601 with offset. */
  authorizedAt: string;
}

export type NfseSubmitResult =
  | ({ kind: 'authorized'; alertas: SefinMessage[] } & IssuedNfse)
  | { kind: 'rejected'; httpStatus: number; erros: SefinMessage[] }
  | { kind: 'failed'; reason: InfrastructureReason; detail: string }
  | { kind: 'unknown'; reason: InfrastructureReason; detail: string };

/** GET/HEAD {base}/dps/{idDps}: does this DPS already have an NFS-e (the reconciliation query). */
export type DpsConsultResult =
  | ({ kind: 'authorized' } & IssuedNfse)
  | { kind: 'not-found' }
  | { kind: 'failed'; reason: InfrastructureReason; detail: string };

/** GET {base}/nfse/{chaveAcesso}. */
export type NfseConsultResult =
  | ({ kind: 'authorized' } & IssuedNfse)
  /** With the registered e101101 as Sefin holds it: what settles a cancellation whose answer was lost. */
  | ({ kind: 'canceled'; cancelamento: { eventXml: string; registeredAt: string } } & IssuedNfse)
  | { kind: 'not-found' }
  | { kind: 'failed'; reason: InfrastructureReason; detail: string };

/** POST {base}/nfse/{chaveAcesso}/eventos (e101101 cancellation, …). */
export type NfseEventResult =
  | { kind: 'registered'; eventXml: string; registeredAt: string }
  | { kind: 'rejected'; httpStatus: number; erros: SefinMessage[] }
  | { kind: 'failed'; reason: InfrastructureReason; detail: string }
  | { kind: 'unknown'; reason: InfrastructureReason; detail: string };

/** Municipal parameters (adherence of a municipality to the national standard in an environment). */
export type MunicipalityAdherenceResult =
  | { kind: 'aderente' }
  | { kind: 'nao_aderente'; mensagem: string }
  | { kind: 'failed'; reason: InfrastructureReason; detail: string };
