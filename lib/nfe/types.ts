/**
 * The contract between request validation (lib/nfe/schema.ts, lib/nfe/rules/) and the XML builder
 * (lib/nfe/xml/): the body of POST /v1/nfe and /v1/nfce after strict validation with its defaults
 * applied, and the checked note the rules produce. Field names are the API's (API.md, "NF-e
 * payload", "Item", "icms", "pis/cofins/ipi", "ibsCbs", "NFC-e payload"); where the spec says
 * "not shown", the names below are this service's design and are documented in OpenAPI.
 *
 * Money and quantities arrive as JSON numbers whose width was checked by the schema (precision
 * rules); arithmetic on them is done in exact integers (lib/money.ts), never in floats.
 */
export type Model = '55' | '65';

export interface Endereco {
  logradouro: string;
  numero: string;
  complemento?: string;
  bairro: string;
  /** IBGE municipality code (7 digits); 9999999 for abroad. */
  codigoMunicipio: string;
  municipio: string;
  uf: string;
  cep?: string;
  /** BACEN country code, default 1058 (Brasil). */
  codigoPais?: string;
  pais?: string;
  telefone?: string;
}

export interface Destinatario {
  /** CNPJ (14) or CPF (11), digits only. */
  cnpjCpf: string;
  nome: string;
  ie?: string;
  /** 1 contributor, 2 exempt, 9 non-contributor. Default 9. */
  indicadorIE: 1 | 2 | 9;
  email?: string;
  endereco: Endereco;
}

export interface Icms {
  /** Goods origin 0-8 (orig). */
  origem: number;
  cst?: string;
  csosn?: string;
  // Classic names (classic ICMS and Simples Nacional).
  aliquota?: number;
  baseCalculo?: number;
  valor?: number;
  // Layout names.
  modBC?: number;
  pRedBC?: number;
  vBC?: number;
  pICMS?: number;
  vICMS?: number;
  vBCFCP?: number;
  pFCP?: number;
  vFCP?: number;
  modBCST?: number;
  pMVAST?: number;
  pRedBCST?: number;
  vBCST?: number;
  pICMSST?: number;
  vICMSST?: number;
  vBCFCPST?: number;
  pFCPST?: number;
  vFCPST?: number;
  qBCMono?: number;
  adRemICMS?: number;
  vICMSMono?: number;
  qBCMonoRet?: number;
  adRemICMSRet?: number;
  vICMSMonoRet?: number;
  indDeduzDeson?: 0 | 1;
  motDesICMS?: number;
  vICMSDeson?: number;
  pCredSN?: number;
  vCredICMSSN?: number;
}

/** PIS or COFINS: rate group (baseCalculo+aliquota+valor) or quantity group (CST 03). */
export interface PisCofins {
  cst: string;
  baseCalculo?: number;
  aliquota?: number;
  valor?: number;
  quantidadeVendida?: number;
  valorAliquotaUnidade?: number;
}

export interface Ipi {
  cst: string;
  /** Legal framework code, 1-3 digits, default 999. */
  cEnq: string;
  baseCalculo?: number;
  aliquota?: number;
  quantidadeUnidadeTributavel?: number;
  valorUnidadeTributavel?: number;
  valor?: number;
}

export interface IbsCbsRate {
  /** Effective rate %, 3v2-4. */
  p: number;
  /** Full rate %, with pRedAliq. */
  pNominal?: number;
  /** Reduction %; > 0 makes the document carry the reduction group. */
  pRedAliq?: number;
  /** Tax value; default p × vBC. */
  v?: number;
}

export interface ItemIbsCbs {
  /** 3 digits, default 000. */
  cst: string;
  /** 6 digits, default 000001. */
  cClassTrib: string;
  vBC?: number;
  ibsUf?: IbsCbsRate;
  ibsMun?: IbsCbsRate;
  cbs?: IbsCbsRate;
  vIbs?: number;
}

/**
 * ICMS partilha to the destination UF (group ICMSUFDest, NT 2015.003, EC 87/2015), layout names.
 * Every field is optional: what is absent is computed (rates from data/icms, values from them),
 * what is sent is kept and must be coherent (lib/nfe/rules/icms-uf-dest.ts).
 */
export interface IcmsUfDest {
  vBCUFDest?: number;
  vBCFCPUFDest?: number;
  pFCPUFDest?: number;
  pICMSUFDest?: number;
  pICMSInter?: 4 | 7 | 12;
  pICMSInterPart?: number;
  vFCPUFDest?: number;
  vICMSUFDest?: number;
  vICMSUFRemet?: number;
}

export interface Combustivel {
  /** ANP product code, 9 digits. */
  cProdANP: string;
  descANP: string;
  pGLP?: number;
  pGNn?: number;
  pGNi?: number;
  vPart?: number;
  /** UF of consumption. */
  ufConsumo: string;
}

export interface Item {
  codigo: string;
  descricao: string;
  /** GTIN (8, 12, 13 or 14 digits) or the literal SEM GTIN. */
  ean: string;
  ncm: string;
  cest?: string;
  cBenef?: string;
  cfop: string;
  unidade: string;
  quantidade: number;
  valorUnitario: number;
  /** Product value; default quantidade × valorUnitario rounded to cents. */
  valorTotal?: number;
  desconto?: number;
  valorFrete?: number;
  valorSeguro?: number;
  outrasDespesas?: number;
  /** 1: item value enters vProd of the total (default); 0: it does not. */
  indTot: 0 | 1;
  unidadeTributavel?: string;
  quantidadeTributavel?: number;
  valorUnitarioTributavel?: number;
  /** GTIN of the tax unit; default repeats `ean`. */
  eanTributavel?: string;
  /** Free text printed with the item (infAdProd), 1-500. */
  informacoesAdicionais?: string;
  /** Customer order number (xPed) and item (nItemPed). */
  pedidoCompra?: string;
  itemPedidoCompra?: string;
  icms: Icms;
  ipi?: Ipi;
  pis?: PisCofins;
  cofins?: PisCofins;
  ibsCbs?: ItemIbsCbs;
  icmsUfDest?: IcmsUfDest;
  combustivel?: Combustivel;
}

export interface Referenciada {
  chaveAcesso: string;
}

export interface Volume {
  quantidade?: number;
  especie?: string;
  marca?: string;
  numeracao?: string;
  /** 12v3 */
  pesoLiquido?: number;
  pesoBruto?: number;
}

export interface Transporte {
  /** 0 issuer, 1 recipient, 2 third party, 3 own by issuer, 4 own by recipient, 9 none. */
  modFrete: 0 | 1 | 2 | 3 | 4 | 9;
  transportador?: {
    cnpjCpf?: string;
    nome?: string;
    ie?: string;
    endereco?: string;
    municipio?: string;
    uf?: string;
  };
  veiculo?: { placa: string; uf?: string; rntc?: string };
  volumes?: Volume[];
}

export interface Cobranca {
  fatura?: { numero: string; valorOriginal: number; valorDesconto?: number; valorLiquido: number };
  duplicatas?: { numero: string; vencimento: string; valor: number }[];
}

export interface Cartao {
  /** 1 integrated (TEF), 2 not integrated (POS). */
  tpIntegra: 1 | 2;
  cnpjInstituicao?: string;
  /** tBand, 2 digits. */
  bandeira?: string;
  autorizacao?: string;
  idTerminal?: string;
  cnpjRecebedor?: string;
}

export interface Pagamento {
  /** tPag, 2 digits ('01' cash … '90' no payment, '99' other). */
  forma: string;
  valor: number;
  /** 0 cash, 1 installments. */
  indPag?: 0 | 1;
  /** xPag, required with forma 99. */
  descricao?: string;
  cartao?: Cartao;
}

/** Process or concession act supporting a tax benefit (procRef). */
export interface ProcessoReferenciado {
  numero: string;
  /** indProc: 0 SEFAZ, 1 Justiça Federal, 2 Justiça Estadual, 9 other. */
  origem: 0 | 1 | 2 | 3 | 4 | 9;
  /** tpAto (concession act type), 2 digits, optional. */
  tipoAto?: string;
}

interface CommonBody {
  issuerId?: string;
  naturezaOperacao: string;
  serie?: number;
  numero?: number;
  items: Item[];
  pagamentos: Pagamento[];
  troco?: number;
  cobranca?: Cobranca;
  informacoesComplementares?: string;
  /** Tax-authority free text (infAdFisco), 1-2000. */
  informacoesFisco?: string;
  /** Concession references (procRef), max 100. */
  processosReferenciados?: ProcessoReferenciado[];
  resolverTributacao?: boolean;
}

export interface NfeBody extends CommonBody {
  tpNF: 0 | 1;
  idDest?: 1 | 2 | 3;
  indFinal?: 0 | 1;
  indPres: number;
  /** Intermediary indicator (indIntermed), 0 or 1, for indPres 2, 3, 4, 9. */
  indIntermed?: 0 | 1;
  finNFe: 1 | 2 | 3 | 4 | 5 | 6;
  referenciadas?: Referenciada[];
  destinatario: Destinatario;
  transporte?: Transporte;
  /** dhSaiEnt as sent: ISO 8601 date-time with seconds and offset (lib/nfe/rules/saida-entrada.ts). */
  dataSaidaEntrada?: string;
}

export interface NfceBody extends CommonBody {
  indPres: 1 | 2 | 3 | 4 | 5 | 9;
  contingencia?: boolean;
  justificativaContingencia?: string;
  destCPF?: string;
  destNome?: string;
}

/** The item after the rules: tax unit resolved, IBS/CBS defaults filled, money exact. */
export interface CheckedItem extends Item {
  /** 1-based position (nItem). */
  nItem: number;
  /**
   * ICMS as lib/nfe/rules/icms.ts normalized it: classic names of CST 00 (baseCalculo, aliquota,
   * valor) rewritten as vBC, pICMS, vICMS, and modBC defaulted to 3 wherever own ICMS is present.
   * `cest` likewise arrives without mask (7 digits).
   */
  icms: Icms;
  unidadeTributavel: string;
  quantidadeTributavel: number;
  valorUnitarioTributavel: number;
  eanTributavel: string;
  /** vProd in cents. */
  valorTotalCents: bigint;
  /** The IBS/CBS group with every default applied (API.md, ibsCbs table); absent when not sent. */
  ibsCbsResolved?: ResolvedIbsCbs;
  /** Lei 12.741 approximate tax of this item (imposto/vTotTrib), when the issuer enables it. */
  approximateTax?: ApproximateTaxAmounts;
  /** The ICMSUFDest group, computed or checked; present exactly when the operation requires it. */
  icmsUfDestResolved?: ResolvedIcmsUfDest;
}

/** ICMSUFDest as written: rates as layout decimal strings, values in cents. */
export interface ResolvedIcmsUfDest {
  vBCUFDest: bigint;
  /** The FCP triple, only when the destination charges FCP on the item (pFCPUFDest > 0). */
  fcp?: { vBCFCPUFDest: bigint; pFCPUFDest: string; vFCPUFDest: bigint };
  pICMSUFDest: string;
  pICMSInter: '4.00' | '7.00' | '12.00';
  pICMSInterPart: string;
  vICMSUFDest: bigint;
  vICMSUFRemet: bigint;
}

/** Approximate tax burden in cents, split as Decreto 8.264/2014 requires it shown; total = the sum. */
export interface ApproximateTaxAmounts {
  federal: bigint;
  estadual: bigint;
  municipal: bigint;
  total: bigint;
}

/** The note's approximate tax (ICMSTot/vTotTrib) and the consumer text for infCpl. */
export interface NoteApproximateTax extends ApproximateTaxAmounts {
  /** "Tributos aproximados (Lei 12.741/2012): …", appended to infCpl by the builder. */
  texto: string;
}

/** A rate as the layout prints it: the exact decimal string sent (e.g. "0.9000") and its value scaled. */
export interface ResolvedRate {
  /** Effective rate, as a fixed-point string with 2-4 decimals. */
  p: string;
  pNominal?: string;
  pRedAliq?: string;
  /** Tax value in cents. */
  v: bigint;
}

export interface ResolvedIbsCbs {
  cst: string;
  cClassTrib: string;
  /** cents */
  vBC: bigint;
  ibsUf: ResolvedRate;
  ibsMun: ResolvedRate;
  cbs: ResolvedRate;
  /** cents: ibsUf.v + ibsMun.v unless sent */
  vIbs: bigint;
}

/**
 * Document totals, computed (never accepted): ICMSTot and IBSCBSTot of the layout, in cents
 * (quantities of monofasic fuel in thousandths/ten-thousandths as noted). Summed per item after
 * each item was rounded, the way the authority validates (API.md, totals rule).
 */
export interface NoteTotals {
  vBC: bigint; vICMS: bigint; vICMSDeson: bigint; vFCP: bigint;
  vBCST: bigint; vST: bigint; vFCPST: bigint;
  /** qBCMono/qBCMonoRet: 4 decimals (scaled by 10^4). */
  qBCMono: bigint; vICMSMono: bigint; qBCMonoRet: bigint; vICMSMonoRet: bigint;
  vProd: bigint; vFrete: bigint; vSeg: bigint; vDesc: bigint; vIPI: bigint;
  vPIS: bigint; vCOFINS: bigint; vOutro: bigint;
  /** vNF = vProd − vDesc + vFrete + vSeg + vOutro + vIPI + vST + vFCPST (API.md). */
  vNF: bigint;
  /** Approximate tax (vTotTrib) when the issuer enables it; 0 otherwise. */
  vTotTrib: bigint;
  /** ICMSTot's vFCPUFDest, vICMSUFDest, vICMSUFRemet: present when any item carries ICMSUFDest. */
  icmsUfDest?: { vFCPUFDest: bigint; vICMSUFDest: bigint; vICMSUFRemet: bigint };
  /** Present when any item carries IBS/CBS. */
  ibsCbs?: { vBCIBSCBS: bigint; vIBSUF: bigint; vIBSMun: bigint; vIBS: bigint; vCBS: bigint };
}

/** Everything the builder needs from the request, derived and checked; no rule is left to it. */
export interface CheckedNote {
  model: Model;
  naturezaOperacao: string;
  tpNF: 0 | 1;
  idDest: 1 | 2 | 3;
  indFinal: 0 | 1;
  indPres: number;
  indIntermed?: 0 | 1;
  finNFe: 1 | 2 | 3 | 4 | 5 | 6;
  /** NF-e only: dhSaiEnt in Brasília time with offset (2026-11-25T14:30:00-03:00). */
  dhSaiEnt?: string;
  referenciadas: string[];
  /** NF-e recipient, or the NFC-e consumer when identified (destCPF/destNome). */
  destinatario?: Destinatario | { cnpjCpf: string; nome: string; indicadorIE: 9 };
  items: CheckedItem[];
  transporte: Transporte;
  cobranca?: Cobranca;
  pagamentos: Pagamento[];
  troco?: number;
  informacoesComplementares?: string;
  informacoesFisco?: string;
  processosReferenciados: ProcessoReferenciado[];
  /** Present only when the issuer enables the approximate tax (lib/nfe/approximate-tax.ts). */
  approximateTax?: NoteApproximateTax;
  /** NFC-e only: what the caller asked about contingency. */
  contingencia?: { requested: boolean | undefined; justificativa?: string };
}
