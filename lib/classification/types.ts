/**
 * The reference tables of assisted taxation of goods (API.md, "What the service does" 5; issue 17)
 * as one versioned whole: the cClassTrib table, the CST table, the NCM lists of the LC 214/2025
 * annexes and the IBS/CBS rates per year. Percentages are integers in ten-thousandths of a percent
 * (`Pct4`: 0.9 % = 9000, 60 % = 600000), never floats.
 */
export type Pct4 = number;

/** Documents of goods whose admissibility the cClassTrib table states (indNFe, indNFCe). */
export type GoodsModel = '55' | '65';

export interface ClassTrib {
  cClassTrib: string;
  cst: string;
  nome: string;
  /** The LC 214/2025 article ("Art. 125"). */
  artigo: string;
  /** Roman numeral of the LC 214 annex whose NCM list the class applies to (ANEXO column 1-17); null otherwise. */
  anexo: string | null;
  pRedIBS: Pct4;
  pRedCBS: Pct4;
  indNFe: boolean;
  indNFCe: boolean;
  /**
   * The groups the class demands in the item (`ind_g*` columns set to 1: gTribRegular,
   * gCredPresOper, gMonoPadrao, gMonoReten, gMonoRet, gMonoDif, gpBioDiferenca, gEstornoCred).
   * The note builder fills none of them, so such a class is never emitted under assisted taxation
   * (lib/classification/resolve.ts, CCLASSTRIB_EXIGE_GRUPO).
   */
  grupos: string[];
  /** ISO days; vigenciaFim null = open. */
  vigenciaInicio: string;
  vigenciaFim: string | null;
}

/** A CST of IBS/CBS and the layout groups it requires (gIBSCBS, gRed, gDif, …). */
export interface CstInfo {
  cst: string;
  descricao: string;
  grupos: string[];
}

/** One item of an LC 214 annex with its NCM prefix rules (derived, not official: data/classification/README.md). */
export interface AnnexItem {
  anexo: string;
  item: string;
  descricao: string;
  /** NCM prefixes (4-8 digits) the item covers. */
  incluidos: string[];
  /** NCM prefixes excepted from the item. */
  excecoes: string[];
}

export interface YearRates {
  ano: number;
  cbs: Pct4;
  ibsUf: Pct4;
  ibsMun: Pct4;
  fonte: string;
}

export interface ClassTable {
  versao: string;
  classes: ClassTrib[];
  csts: CstInfo[];
  anexos: AnnexItem[];
  aliquotas: YearRates[];
}

/** What the API says of the correlation it answers from (the `fonte` field of its answers). */
export const CORRELATION_SOURCE = 'LC 214/2025, anexos por NCM (correlação derivada, não oficial: classe candidata) + tabela cClassTrib';

/** A class offered for an NCM, as the API shows it (API.md: candidatas). */
export interface Candidate {
  cClassTrib: string;
  nome: string;
  cst: string;
  /** Reductions in percent (60 = 60 %). */
  pRedIBS: number;
  pRedCBS: number;
  /** "LC 214/2025, Art. 125 (Anexo I, item 19)". */
  fundamentoLegal: string;
  admitidaNFe: boolean;
  admitidaNFCe: boolean;
}

export const PRODUCT_CLASS_ORIGINS = ['informado', 'confirmado', 'contador', 'pendente'] as const;
export type ProductClassOrigin = (typeof PRODUCT_CLASS_ORIGINS)[number];

/** Why an item is in the pending list. */
export type PendingReason = 'multiclasse' | 'candidatas_alteradas' | 'deslocou_confirmada';

/**
 * The product class memory of one issuer and item `codigo` (API.md, Rules on the product class
 * memory). `cClassTrib` is null only while `pendente` without a usable class.
 */
export interface ProductClass {
  codigo: string;
  ncm: string;
  cClassTrib: string | null;
  origem: ProductClassOrigin;
  motivo: PendingReason | null;
  cClassTribAnterior: string | null;
  /** ISO date-time the confirmed class was displaced by a sent one. */
  deslocouEm: string | null;
}
