/**
 * What the emission path knows about an issuer: one snapshot, fetched with one call
 * (v1.issuer.forEmission) together with the preflight facts. Field names follow API.md where it
 * names them (crt, ie, csc, cscId, ambienteFiscal…).
 */
export type Crt = 1 | 2 | 3 | 4;
export type Ambiente = 1 | 2; // 1 produção, 2 homologação
/** NFS-e tribISSQN (TSTribISSQN): 1 taxable, 2 immunity, 3 export, 4 no incidence. */
export type TribIssqnPadrao = 1 | 2 | 3 | 4;
/** NFS-e regEspTrib (TSRegEspTrib): 0 none, 1-6 special regimes, 9 other. */
export type RegEspTribPadrao = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 9;

export interface IssuerAddress {
  logradouro: string;
  numero: string;
  complemento?: string | null;
  bairro: string;
  /** IBGE municipality code, 7 digits. */
  codigoMunicipio: string;
  municipio: string;
  uf: string;
  cep: string;
  telefone?: string | null;
}

export interface IssuerSnapshot {
  id: string;
  partnerId: string;
  cnpj: string;
  razaoSocial: string;
  nomeFantasia?: string | null;
  /** State registration, digits, or the uppercase literal ISENTO. */
  ie: string;
  /** Municipal registration (required when the note has services). */
  inscricaoMunicipal?: string | null;
  cnae?: string | null;
  crt: Crt;
  endereco: IssuerAddress;
  ambienteFiscal: Ambiente;
  sandbox: boolean;
  csc?: string | null;
  cscId?: string | null;
  /** Default series per model. */
  serieNfe: number;
  serieNfce: number;
  serieNfse: number;
  valorAproximadoTributosEnabled: boolean;
  fiscalBrainEnabled: boolean;
  /** tpImp of its NF-e (B21): 1 portrait, 2 landscape, 3 simplified; absent means 1. */
  formatoDanfe?: FormatoDanfe;
  servicoPadraoLc116?: string | null;
  cTribNacPadrao?: string | null;
  pTotTribSNPadrao?: number | null;
  /** AAAA-MM */
  pTotTribSNCompetencia?: string | null;
  /** NFS-e defaults read by assisted taxation (API.md, NFS-e rule 10) and the DPS prest group. */
  codigoNbsPadrao?: string | null;
  tribIssqnPadrao?: TribIssqnPadrao | null;
  indDestPadrao?: 0 | 1 | null;
  regEspTribPadrao?: RegEspTribPadrao | null;
  /** prest/email of the DPS. */
  email?: string | null;
  /** Override of the authority endpoint (e.g. the simulator); null = the official table. */
  sefazUrl?: string | null;
}

/** The A1 material the signer and the mTLS client need, decrypted only in memory. */
export interface SigningMaterial {
  issuerId: string;
  /** Changes whenever the certificate is replaced; key caches are keyed by it. */
  fingerprint: string;
  keyPem: string;
  certPem: string;
  /** Chain (intermediates) as PEM, for the TLS client. */
  chainPem: string[];
  notAfter: string;
}

/** DANFE format of an issuer's NF-e, written as tpImp (MOC 4.00 B21; 3 per NT 2020.004). */
export type FormatoDanfe = 1 | 2 | 3;
