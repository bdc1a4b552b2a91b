import type { Ambiente, Crt, FormatoDanfe, IssuerAddress, IssuerSnapshot, RegEspTribPadrao, TribIssqnPadrao } from './types.js';

/**
 * The issuer as stored and edited: the snapshot's fields, but any of them may still be missing
 * (an issuer can be created with CNPJ and razão social only and completed later). The emission
 * path only ever sees a complete IssuerSnapshot (see ./preflight.ts).
 */
export interface IssuerProfile {
  razaoSocial: string;
  nomeFantasia?: string | null;
  ie?: string | null;
  inscricaoMunicipal?: string | null;
  cnae?: string | null;
  crt?: Crt | null;
  endereco: Partial<Record<keyof IssuerAddress, string | null>>;
  serieNfe: number;
  serieNfce: number;
  serieNfse: number;
  csc?: string | null;
  cscId?: string | null;
  servicoPadraoLc116?: string | null;
  cTribNacPadrao?: string | null;
  pTotTribSNPadrao?: number | null;
  pTotTribSNCompetencia?: string | null;
  codigoNbsPadrao?: string | null;
  tribIssqnPadrao?: TribIssqnPadrao | null;
  indDestPadrao?: 0 | 1 | null;
  regEspTribPadrao?: RegEspTribPadrao | null;
  email?: string | null;
  fiscalBrainEnabled: boolean;
  valorAproximadoTributosEnabled: boolean;
  sefazUrl?: string | null;
  /** Absent in profiles stored before issue 22: read as 1. */
  formatoDanfe?: FormatoDanfe;
}

/** What the API shows of an installed certificate; the PFX and its password are never shown. */
export interface CertificateSummary {
  subject: string;
  serial: string;
  notBefore: string;
  notAfter: string;
  cnpj: string;
}

export interface IssuerRecord {
  id: string;
  partnerId: string;
  cnpj: string;
  ambienteFiscal: Ambiente;
  sandbox: boolean;
  profile: IssuerProfile;
  certificate: CertificateSummary | null;
  createdAt: string;
  updatedAt: string;
}

export const PROFILE_DEFAULTS = {
  serieNfe: 1,
  serieNfce: 1,
  serieNfse: 1,
  fiscalBrainEnabled: false,
  valorAproximadoTributosEnabled: false,
} as const;

const ADDRESS_KEYS: (keyof IssuerAddress)[] = ['logradouro', 'numero', 'complemento', 'bairro', 'codigoMunicipio', 'municipio', 'uf', 'cep', 'telefone'];

/**
 * The CSC signs every NFC-e QR code: like the other secrets it is write-only, and reads show only
 * enough to tell two apart (`AB...yz`; nothing of one shorter than 8 characters).
 */
export function maskCsc(csc: string): string {
  return csc.length < 8 ? '...' : `${csc.slice(0, 2)}...${csc.slice(-2)}`;
}

/** The Issuer resource as the API returns it (GET/POST/PATCH /v1/companies). */
export function toIssuerResponse(r: IssuerRecord): Record<string, unknown> {
  const p = r.profile;
  return {
    issuerId: r.id,
    cnpj: r.cnpj,
    razaoSocial: p.razaoSocial,
    nomeFantasia: p.nomeFantasia ?? null,
    ie: p.ie ?? null,
    inscricaoMunicipal: p.inscricaoMunicipal ?? null,
    cnae: p.cnae ?? null,
    crt: p.crt ?? null,
    endereco: Object.fromEntries(ADDRESS_KEYS.map((k) => [k, p.endereco[k] ?? null])),
    ambienteFiscal: r.ambienteFiscal,
    sandbox: r.sandbox,
    serieNfe: p.serieNfe,
    serieNfce: p.serieNfce,
    serieNfse: p.serieNfse,
    csc: p.csc ? maskCsc(p.csc) : null,
    cscId: p.cscId ?? null,
    servicoPadraoLc116: p.servicoPadraoLc116 ?? null,
    cTribNacPadrao: p.cTribNacPadrao ?? null,
    pTotTribSNPadrao: p.pTotTribSNPadrao ?? null,
    pTotTribSNCompetencia: p.pTotTribSNCompetencia ?? null,
    codigoNbsPadrao: p.codigoNbsPadrao ?? null,
    tribIssqnPadrao: p.tribIssqnPadrao ?? null,
    indDestPadrao: p.indDestPadrao ?? null,
    regEspTribPadrao: p.regEspTribPadrao ?? null,
    email: p.email ?? null,
    fiscalBrainEnabled: p.fiscalBrainEnabled,
    valorAproximadoTributosEnabled: p.valorAproximadoTributosEnabled,
    sefazUrl: p.sefazUrl ?? null,
    formatoDanfe: p.formatoDanfe ?? 1,
    certificado: r.certificate,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Only for a record that passed missingFields(): every required value is present. */
export function toSnapshot(r: IssuerRecord): IssuerSnapshot {
  const p = r.profile;
  const e = p.endereco;
  return {
    id: r.id,
    partnerId: r.partnerId,
    cnpj: r.cnpj,
    razaoSocial: p.razaoSocial,
    nomeFantasia: p.nomeFantasia ?? null,
    ie: p.ie ?? '',
    inscricaoMunicipal: p.inscricaoMunicipal ?? null,
    cnae: p.cnae ?? null,
    crt: (p.crt ?? 1) as Crt,
    endereco: {
      logradouro: e.logradouro ?? '', numero: e.numero ?? '', complemento: e.complemento ?? null, bairro: e.bairro ?? '',
      codigoMunicipio: e.codigoMunicipio ?? '', municipio: e.municipio ?? '', uf: e.uf ?? '', cep: e.cep ?? '', telefone: e.telefone ?? null,
    },
    ambienteFiscal: r.ambienteFiscal,
    sandbox: r.sandbox,
    csc: p.csc ?? null,
    cscId: p.cscId ?? null,
    serieNfe: p.serieNfe,
    serieNfce: p.serieNfce,
    serieNfse: p.serieNfse,
    valorAproximadoTributosEnabled: p.valorAproximadoTributosEnabled,
    fiscalBrainEnabled: p.fiscalBrainEnabled,
    formatoDanfe: p.formatoDanfe ?? 1,
    servicoPadraoLc116: p.servicoPadraoLc116 ?? null,
    cTribNacPadrao: p.cTribNacPadrao ?? null,
    pTotTribSNPadrao: p.pTotTribSNPadrao ?? null,
    pTotTribSNCompetencia: p.pTotTribSNCompetencia ?? null,
    codigoNbsPadrao: p.codigoNbsPadrao ?? null,
    tribIssqnPadrao: p.tribIssqnPadrao ?? null,
    indDestPadrao: p.indDestPadrao ?? null,
    regEspTribPadrao: p.regEspTribPadrao ?? null,
    email: p.email ?? null,
    sefazUrl: p.sefazUrl ?? null,
  };
}
