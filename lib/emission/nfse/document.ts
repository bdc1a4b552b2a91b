/**
 * A stored NFS-e (its DPS and what Sefin Nacional answered) and its public views: the 201 of
 * POST /v1/nfse, GET /v1/nfse/{id}, the list items and the webhook `data` (API.md, Events >
 * Payload: `nfseId`, `model: "NFSe"`). Pure: records in, JSON out.
 */
import { formatCents } from '../../money.js';
import type { NfseAviso } from '../../nfse/types.js';
import type { Erro } from '../document.js';
import { isNfseOpen, type NfseStatus } from './state.js';

export interface NfseRecord {
  id: string;
  partnerId: string;
  issuerId: string;
  serie: number;
  /** nDPS: allocated per issuer, série and environment, gap-free. */
  nDps: number;
  environment: 1 | 2;
  keyKind: 'live' | 'test' | 'jwt';
  /** infDPS Id (45 characters): what Sefin is asked about in reconciliation. */
  idDps: string;
  /** cLocPrestacao: the municipality whose adherence decided this DPS (rule 9). */
  codigoMunicipio: string;
  emittedAt: Date;
  status: NfseStatus;
  amountCents: bigint;
  /** chaveAcesso (50 digits) and nNFSe, from Sefin once authorized. */
  chaveAcesso: string | null;
  numeroNfse: string | null;
  authorizedAt: Date | null;
  erros: Erro[] | null;
  /** Sefin's alertas[] on authorization and rule 8's avisos[], as returned at emission. */
  avisos: NfseAviso[];
  alertas: Erro[];
  motivo: string | null;
  createdAt: Date;
  updatedAt: Date;
  nextCheckAt: Date | null;
  checkAttempts: number;
  transmissions: number;
  transmittingUntil: Date | null;
  canceledAt: Date | null;
}

export function nfseLinks(doc: Pick<NfseRecord, 'id'>) {
  const self = `/v1/nfse/${doc.id}`;
  return { self, xml: `${self}/xml`, cancelamento: `${self}/cancelamento`, danfse: `${self}/danfse.pdf`, danfseHtml: `${self}/danfse.html` };
}

/** The 201 of POST /v1/nfse (issue 16: id, status, chaveAcesso, numero, serie, nDPS, amount, links). */
export function nfseEmissionView(doc: NfseRecord) {
  return {
    id: doc.id,
    status: doc.status,
    model: 'NFSe' as const,
    chaveAcesso: doc.chaveAcesso,
    numero: doc.numeroNfse,
    serie: doc.serie,
    nDPS: doc.nDps,
    idDps: doc.idDps,
    amount: formatCents(doc.amountCents),
    issuerId: doc.issuerId,
    createdAt: doc.createdAt.toISOString(),
    avisos: doc.avisos,
    alertas: doc.alertas,
    links: nfseLinks(doc),
  };
}

/** GET /v1/nfse/{id}: the emission view plus what a caller needs after a timeout. */
export function nfseDetailView(doc: NfseRecord) {
  return {
    ...nfseEmissionView(doc),
    ambiente: doc.environment,
    situacao: isNfseOpen(doc.status) ? 'indeterminada' : null,
    authorizedAt: doc.authorizedAt?.toISOString() ?? null,
    canceladaEm: doc.canceledAt?.toISOString() ?? null,
    erros: doc.erros,
    motivo: doc.motivo,
    proximaVerificacaoEm: isNfseOpen(doc.status) ? doc.nextCheckAt?.toISOString() ?? null : null,
    updatedAt: doc.updatedAt.toISOString(),
  };
}

/** Items of `GET /v1/nfse?situacao=indeterminada` (same fields as the NF-e list). */
export function nfseIndeterminateView(doc: NfseRecord) {
  return {
    id: doc.id,
    situacao: 'indeterminada' as const,
    idDps: doc.idDps,
    status: doc.status,
    nDPS: doc.nDps,
    serie: doc.serie,
    issuerId: doc.issuerId,
    updatedAt: doc.updatedAt.toISOString(),
    proximaVerificacaoEm: doc.nextCheckAt?.toISOString() ?? null,
    motivo: doc.motivo,
    links: nfseLinks(doc),
  };
}

/** `data` of invoice.authorized / invoice.rejected / invoice.canceled for an NFS-e. */
export function nfseEventData(doc: NfseRecord) {
  return {
    nfseId: doc.id,
    model: 'NFSe' as const,
    number: doc.nDps,
    series: doc.serie,
    idDps: doc.idDps,
    // accessKey as in every invoice event (API.md's data table renames only invoiceId), so one
    // consumer reads the key of any model; chaveAcesso is Sefin's name for the same value.
    accessKey: doc.status === 'REJECTED' ? null : doc.chaveAcesso,
    chaveAcesso: doc.status === 'REJECTED' ? null : doc.chaveAcesso,
    numeroNfse: doc.numeroNfse,
    status: doc.status,
    amount: formatCents(doc.amountCents),
    ...(doc.erros && doc.status === 'REJECTED' ? { erros: doc.erros } : {}),
    // What a partner needs without calling back (issue 21, item 7); the prestador's CNPJ is in the
    // idDps (DPS + cMun 7 + tpInsc 1 + inscrição 14 + série 5 + nDPS 15), a CPF zero-padded.
    issuerId: doc.issuerId,
    cnpj: doc.idDps.slice(10, 11) === '2' ? doc.idDps.slice(11, 25) : null,
    ...(doc.erros && doc.status === 'REJECTED' && doc.erros[0] ? { codigo: doc.erros[0].codigo, descricao: doc.erros[0].descricao } : {}),
    links: nfseLinks(doc),
  };
}
