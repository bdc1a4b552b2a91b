import type { IssuerSnapshot } from '../issuer/types.js';

/**
 * Types of the NFS-e national standard (DPS, layout 1.01): the request body of POST /v1/nfse as
 * lib/nfse/validate.ts returns it (API.md, "NFS-e payload"), the issuer facts the rules read, and
 * the checked DPS the XML builder writes without computing or checking anything else.
 */

/** tpRetISSQN (TSTipoRetISSQN): 1 not retained, 2 retained by the taker, 3 by the intermediary. */
export type TpRetIssqn = 1 | 2 | 3;
/** opSimpNac (TSOpSimpNac): 1 not optant, 2 MEI, 3 ME/EPP. */
export type OpSimpNac = 1 | 2 | 3;
/** tribISSQN (TSTribISSQN): 1 taxable, 2 immunity, 3 export, 4 no incidence. */
export type TribIssqn = 1 | 2 | 3 | 4;

export interface DpsNacional {
  opSimpNac?: OpSimpNac;
  regApTribSN?: 1 | 2 | 3;
  regEspTrib: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 9;
  cTribNac?: string;
  cTribMun?: string;
  tribISSQN?: TribIssqn;
  tpRetISSQN?: TpRetIssqn;
  cstPisCofins?: string;
  tpRetPisCofins?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  pTotTribSN?: number;
}

export interface Rps {
  numero?: number;
  serie?: string;
  tipo?: 1 | 2 | 3;
}

export interface TomadorEndereco {
  logradouro: string;
  numero: string;
  complemento?: string;
  bairro: string;
  codigoMunicipio: string;
  cep: string;
}

export interface Tomador {
  cnpjCpf: string;
  razaoSocial: string;
  inscricaoMunicipal?: string;
  email?: string;
  telefone?: string;
  endereco?: TomadorEndereco;
}

export interface Servico {
  valorServicos: number;
  discriminacao: string;
  itemListaServico?: string;
  codigoNBS?: string;
  codigoMunicipio?: string;
  codigoTributacaoMunicipio?: string;
  aliquotaIss?: number;
  descontoIncondicionado?: number;
  descontoCondicionado?: number;
  valorDeducoes?: number;
}

export interface Retencoes {
  issRetidoPor?: TpRetIssqn;
  inss?: number;
  irrf?: number;
  csll?: number;
  pis?: number;
  cofins?: number;
  outrasRetencoes?: number;
}

export interface NfseIbsCbs {
  cst?: string;
  cClassTrib?: string;
  cCredPres?: string;
  cIndOp?: string;
  finNFSe?: 0;
  indDest?: 0 | 1;
  indFinal?: 0 | 1;
  tpEnteGov?: 1 | 2 | 3 | 4;
  tpOper?: 1 | 2 | 3 | 4 | 5;
  gDif?: { pDifUF: number; pDifMun: number; pDifCBS: number };
  gTribRegular?: { cstReg: string; cClassTribReg: string };
}

export interface NfseBody {
  issuerId: string;
  rps?: Rps;
  serie: number;
  dpsNacional?: DpsNacional;
  /** Accepted for compatibility with municipal (ABRASF) payloads, never written (rule 2). */
  naturezaOperacao?: string;
  regimeTributacao?: number;
  optanteSimples?: boolean;
  exigibilidadeISS?: number;
  /** dCompet, AAAA-MM-DD. */
  competencia?: string;
  tomador?: Tomador;
  servico: Servico;
  retencoes?: Retencoes;
  ibsCbs?: NfseIbsCbs;
  informacoesComplementares?: string;
  resolverTributacao?: boolean;
}

/**
 * What the NFS-e rules and the DPS builder read about the issuer: a part of every IssuerSnapshot,
 * including the NFS-e defaults of the issuer record that assisted taxation (rule 10) reads.
 */
export type NfseIssuer = Pick<
  IssuerSnapshot,
  'cnpj' | 'crt' | 'endereco' | 'inscricaoMunicipal' | 'cTribNacPadrao' | 'servicoPadraoLc116' | 'pTotTribSNPadrao' | 'pTotTribSNCompetencia'
> & Partial<Pick<IssuerSnapshot, 'email' | 'codigoNbsPadrao' | 'tribIssqnPadrao' | 'indDestPadrao' | 'regEspTribPadrao'>>;

/** Adherence of the service municipality to the national standard in the issuer's environment. */
export type AdesaoMunicipio = 'aderente' | 'nao_aderente' | 'desconhecido';

/** A warning that does not stop emission (API.md, NFS-e rule 8): returned as `avisos[]`. */
export interface NfseAviso {
  codigo: 'PTOTTRIBSN_COMPETENCIA_AUSENTE' | 'PTOTTRIBSN_COMPETENCIA_ANTERIOR' | 'PTOTTRIBSN_COMPETENCIA_FUTURA';
  campo: string;
  mensagem: string;
  /** The issuer record's pTotTribSNCompetencia (AAAA-MM), when there is one. */
  competencia?: string;
}

/** totTrib (TCTribTotal): the percentage of the Simples Nacional, or the "not informed" indicator. */
export type TotTrib = { pTotTribSN: number } | { indTotTrib: 0 };

export interface CheckedIbsCbs {
  finNFSe: 0;
  indFinal?: 0 | 1;
  cIndOp: string;
  tpOper?: 1 | 2 | 3 | 4 | 5;
  tpEnteGov?: 1 | 2 | 3 | 4;
  indDest: 0 | 1;
  cst: string;
  cClassTrib: string;
  cCredPres?: string;
  gTribRegular?: { cstReg: string; cClassTribReg: string };
  gDif?: { pDifUF: number; pDifMun: number; pDifCBS: number };
}

/** The DPS content after rules 2-8 and 10: every choice made, every tag decided. */
export interface CheckedDps {
  serie: number;
  competencia?: string;
  regTrib: { opSimpNac: OpSimpNac; regApTribSN?: 1 | 2 | 3; regEspTrib: DpsNacional['regEspTrib'] };
  tomador?: Tomador;
  servico: {
    /** cLocPrestacao; absent = the issuer's municipality. */
    codigoMunicipio?: string;
    cTribNac: string;
    cTribMun?: string;
    discriminacao: string;
    codigoNBS?: string;
    itemListaServico?: string;
  };
  valores: {
    valorServicos: number;
    descontoIncondicionado?: number;
    descontoCondicionado?: number;
    valorDeducoes?: number;
  };
  tribMun: { tribISSQN: TribIssqn; tpRetISSQN: TpRetIssqn; aliquotaIss?: number };
  tribFed?: {
    piscofins?: { cst: string; tpRetPisCofins?: DpsNacional['tpRetPisCofins'] };
    inss?: number;
    irrf?: number;
    csll?: number;
  };
  totTrib: TotTrib;
  ibsCbs?: CheckedIbsCbs;
  informacoesComplementares?: string;
}

export interface CheckedNfse {
  dps: CheckedDps;
  avisos: NfseAviso[];
}
