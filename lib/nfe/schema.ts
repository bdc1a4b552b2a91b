/**
 * Request schemas of POST /v1/nfe, /v1/nfe/batch and /v1/nfce (API.md, "NF-e payload", "Item",
 * "icms", "pis/cofins/ipi", "ibsCbs", "NFC-e payload", "Precision rules"). Plain fastest-validator
 * data: the same objects are compiled by lib/nfe/validate.ts and turned into OpenAPI.
 *
 * Every object is strict (unknown keys answer 400 with details.camposDesconhecidos). Sizes,
 * patterns and enumerations answer 400 here; the rules that the spec gives a 422 code to (for
 * example `referenciadas` key format and count, CEST format, the contingency justification length)
 * are deliberately loose here and enforced by lib/nfe/rules/ so the caller gets the catalogued code.
 * Subfields the spec does not show follow lib/nfe/types.ts.
 */

import { FISCAL_TEXT_MESSAGE, FISCAL_TEXT_PATTERN } from '../emission/fiscal-text.js';
import { DATA_SAIDA_ENTRADA_PATTERN } from './rules/saida-entrada.js';

// Fixed-point widths (API.md, Precision rules): money 13v2, quantities 11v0-4, unit values 11v0-10,
// rates 3v2-4, weights 12v3.
const money = { type: 'decimal', intDigits: 13, fracDigits: 2, min: 0 } as const;
const optMoney = { ...money, optional: true } as const;
const quantity = { type: 'decimal', intDigits: 11, fracDigits: 4, min: 0 } as const;
const unitValue = { type: 'decimal', intDigits: 11, fracDigits: 10, min: 0 } as const;
const optRate = { type: 'decimal', intDigits: 3, fracDigits: 4, min: 0, optional: true } as const;
const optWeight = { type: 'decimal', intDigits: 12, fracDigits: 3, min: 0, optional: true } as const;
/** qBCMono and friends: TDec_1104 in the layout. */
const optMonoQuantity = { type: 'decimal', intDigits: 11, fracDigits: 4, min: 0, optional: true } as const;
const optQuantity = { ...quantity, optional: true } as const;
const optUnitValue = { ...unitValue, optional: true } as const;

/**
 * A text of the layout. Every free text of the NF-e/NFC-e is a TString (tiposBasico_v4.00.xsd:
 * Latin-1, no space at either end): without the pattern here, a BOM or a combining accent passed
 * validation and was refused only by the XSD check of the built document (422 XML_FORA_DO_ESQUEMA)
 * instead of the 400 naming the field. Fields with their own pattern keep it.
 */
const str = (min: number, max: number, extra: Record<string, unknown> = {}) => ({
  type: 'string', min, max, ...(extra.pattern ? {} : { pattern: FISCAL_TEXT_PATTERN, messages: { stringPattern: FISCAL_TEXT_MESSAGE } }), ...extra,
});
const optStr = (min: number, max: number, extra: Record<string, unknown> = {}) => ({ ...str(min, max, extra), optional: true });
const int = (min: number, max: number, extra: Record<string, unknown> = {}) => ({ type: 'number', integer: true, min, max, ...extra });
const oneOf = (values: readonly (number | string)[], extra: Record<string, unknown> = {}) => ({ type: 'enum', values: [...values], ...extra });
const obj = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', strict: true, props, ...extra });

const DIGITS = (n: string) => new RegExp(`^\\d{${n}}$`);
/** The 27 UFs and EX (abroad): TUf of tiposBasico_v4.00.xsd. */
const UF = /^(A[CLMP]|BA|CE|DF|ES|GO|M[AGST]|P[ABEIR]|R[JNORS]|S[CEP]|TO|EX)$/;
const UF_RULE = { pattern: UF, messages: { stringPattern: "O campo '{field}' deve ser a sigla de uma UF (ou EX para exterior)." } };

export const enderecoSchema = obj({
  logradouro: str(2, 60),
  numero: str(1, 60),
  complemento: optStr(1, 60),
  bairro: str(2, 60),
  codigoMunicipio: str(7, 7, { pattern: DIGITS('7') }),
  municipio: str(2, 60),
  uf: str(2, 2, UF_RULE),
  cep: optStr(8, 8, { pattern: DIGITS('8') }),
  codigoPais: optStr(1, 4, { pattern: DIGITS('1,4') }),
  pais: optStr(2, 60),
  telefone: optStr(6, 14, { pattern: DIGITS('6,14') }),
});

export const destinatarioSchema = obj({
  cnpjCpf: { type: 'string', pattern: /^(\d{11}|\d{14})$/ },
  nome: str(2, 60),
  // Required when indicadorIE = 1: checked after the schema (lib/nfe/validate.ts).
  ie: optStr(2, 14, { pattern: /^(\d{2,14}|ISENTO)$/ }),
  indicadorIE: oneOf([1, 2, 9], { default: 9 }),
  email: optStr(1, 60),
  endereco: enderecoSchema,
});

/** Old ST names: known keys refused by rule 4 with 422 ICMS_ST_NAO_SUPORTADO, not 400. */
const legacyStName = { type: 'any', optional: true } as const;

export const icmsSchema = obj({
  origem: int(0, 8),
  cst: optStr(2, 2, { pattern: DIGITS('2') }),
  csosn: optStr(3, 3, { pattern: DIGITS('3') }),
  aliquota: optRate,
  baseCalculo: optMoney,
  valor: optMoney,
  modBC: { ...oneOf([0, 1, 2, 3]), optional: true },
  pRedBC: optRate,
  vBC: optMoney,
  pICMS: optRate,
  vICMS: optMoney,
  vBCFCP: optMoney,
  pFCP: optRate,
  vFCP: optMoney,
  modBCST: { ...oneOf([0, 1, 2, 3, 4, 5, 6]), optional: true },
  pMVAST: optRate,
  pRedBCST: optRate,
  vBCST: optMoney,
  pICMSST: optRate,
  vICMSST: optMoney,
  vBCFCPST: optMoney,
  pFCPST: optRate,
  vFCPST: optMoney,
  qBCMono: optMonoQuantity,
  adRemICMS: optRate,
  vICMSMono: optMoney,
  qBCMonoRet: optMonoQuantity,
  adRemICMSRet: optRate,
  vICMSMonoRet: optMoney,
  indDeduzDeson: { ...oneOf([0, 1]), optional: true },
  motDesICMS: { ...oneOf([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 90]), optional: true },
  vICMSDeson: optMoney,
  pCredSN: optRate,
  vCredICMSSN: optMoney,
  baseCalculoST: legacyStName,
  aliquotaST: legacyStName,
  valorST: legacyStName,
});

export const pisCofinsSchema = obj({
  cst: str(2, 2, { pattern: DIGITS('2') }),
  baseCalculo: optMoney,
  aliquota: optRate,
  valor: optMoney,
  quantidadeVendida: { type: 'decimal', intDigits: 12, fracDigits: 4, min: 0, optional: true },
  valorAliquotaUnidade: { type: 'decimal', intDigits: 11, fracDigits: 4, min: 0, optional: true },
}, { optional: true });

export const ipiSchema = obj({
  cst: str(2, 2, { pattern: DIGITS('2') }),
  cEnq: optStr(1, 3, { pattern: DIGITS('1,3'), default: '999' }),
  baseCalculo: optMoney,
  aliquota: optRate,
  quantidadeUnidadeTributavel: { type: 'decimal', intDigits: 12, fracDigits: 4, min: 0, optional: true },
  valorUnidadeTributavel: { type: 'decimal', intDigits: 11, fracDigits: 4, min: 0, optional: true },
  valor: optMoney,
}, { optional: true });

const ibsCbsRateSchema = obj({
  p: { type: 'decimal', intDigits: 3, fracDigits: 4, min: 0 },
  pNominal: optRate,
  pRedAliq: optRate,
  v: optMoney,
}, { optional: true });

export const ibsCbsSchema = obj({
  cst: optStr(3, 3, { pattern: DIGITS('3'), default: '000' }),
  cClassTrib: optStr(6, 6, { pattern: DIGITS('6'), default: '000001' }),
  vBC: optMoney,
  // Required for emission; optional here because `cClassTrib` alone is a hint for assisted
  // taxation (API.md, ibsCbs table). lib/nfe/rules/ibs-cbs.ts refuses an unresolved group.
  ibsUf: ibsCbsRateSchema,
  ibsMun: ibsCbsRateSchema,
  cbs: ibsCbsRateSchema,
  vIbs: optMoney,
}, { optional: true });

/**
 * Partilha do ICMS (ICMSUFDest, EC 87/2015), layout names. Every field optional: the service fills
 * what is absent and checks what is sent (lib/nfe/rules/icms-uf-dest.ts).
 */
export const icmsUfDestSchema = obj({
  vBCUFDest: optMoney,
  vBCFCPUFDest: optMoney,
  pFCPUFDest: optRate,
  pICMSUFDest: optRate,
  pICMSInter: { ...oneOf([4, 7, 12]), optional: true },
  pICMSInterPart: optRate,
  vFCPUFDest: optMoney,
  vICMSUFDest: optMoney,
  vICMSUFRemet: optMoney,
}, {
  optional: true,
  description: 'Partilha do ICMS para a UF de destino (grupo ICMSUFDest, EC 87/2015), só na NF-e interestadual (idDest 2) a consumidor final (indFinal 1) não contribuinte (indicadorIE 9); fora dela 422 ICMS_UF_DEST_INDEVIDO (rejeição 695). Nessa operação todo item leva o grupo: omitido, o serviço calcula (alíquota interna e FCP da UF de destino da tabela data/icms, pICMSInter 4/7/12, pICMSInterPart 100, base única = valor da operação do item, 0 em item isento, imune ou não tributado, vICMSUFRemet 0); campos enviados são mantidos e conferidos (422 ICMS_UF_DEST_INVALIDO). Envie pICMSUFDest/pFCPUFDest quando a alíquota do produto não for a modal da UF.',
});

export const combustivelSchema = obj({
  cProdANP: str(9, 9, { pattern: DIGITS('9') }),
  descANP: str(2, 95),
  pGLP: optRate,
  pGNn: optRate,
  pGNi: optRate,
  vPart: optMoney,
  ufConsumo: str(2, 2, UF_RULE),
}, { optional: true });

export const itemSchema = obj({
  codigo: str(1, 60),
  descricao: str(1, 120),
  ean: { type: 'string', pattern: /^(\d{8}|\d{12,14}|SEM GTIN)$/, optional: true, default: 'SEM GTIN' },
  ncm: { type: 'string', pattern: /^(?:\d{2}|\d{8})$/ },
  // Format checked by lib/nfe/rules/cest.ts (422 CEST_INVALIDO, mask stripped).
  // Any text: the mask is stripped and the format refused by the rule (422 CEST_INVALIDO, API.md).
  cest: { type: 'string', min: 1, max: 20, optional: true },
  cBenef: { type: 'string', pattern: /^([0-9A-Za-z]{8}|[0-9A-Za-z]{10}|SEM CBENEF)$/, optional: true },
  cfop: { type: 'string', pattern: /^[123567]\d{3}$/ },
  unidade: str(1, 6),
  quantidade: quantity,
  valorUnitario: unitValue,
  valorTotal: optMoney,
  desconto: optMoney,
  valorFrete: optMoney,
  valorSeguro: optMoney,
  outrasDespesas: optMoney,
  indTot: oneOf([0, 1], { default: 1 }),
  unidadeTributavel: optStr(1, 6),
  quantidadeTributavel: optQuantity,
  valorUnitarioTributavel: optUnitValue,
  eanTributavel: { type: 'string', pattern: /^(\d{8}|\d{12,14}|SEM GTIN)$/, optional: true },
  informacoesAdicionais: optStr(1, 500),
  pedidoCompra: optStr(1, 15),
  itemPedidoCompra: optStr(1, 6, { pattern: DIGITS('1,6') }),
  icms: icmsSchema,
  ipi: ipiSchema,
  pis: pisCofinsSchema,
  cofins: pisCofinsSchema,
  ibsCbs: ibsCbsSchema,
  icmsUfDest: icmsUfDestSchema,
  combustivel: combustivelSchema,
});

/**
 * The NFC-e item: `ipi` is any value here, so an IPI group answers 422 IPI_NAO_SUPORTADO from the
 * rules (API.md: any content) instead of a 400 about its inner fields (issue 22, item 3).
 */
export const nfceItemSchema = obj({
  ...itemSchema.props,
  ipi: { type: 'any', optional: true, description: 'Não aceito em NFC-e: qualquer conteúdo responde 422 IPI_NAO_SUPORTADO.' },
});

export const referenciadaSchema = obj({
  // Format, UF, month, model, number and check digit answer 422 REFERENCIADA_INVALIDA
  // (API.md, emission rule 7), so only the type is checked here.
  chaveAcesso: { type: 'string', max: 60 },
});

export const transporteSchema = obj({
  modFrete: oneOf([0, 1, 2, 3, 4, 9]),
  transportador: obj({
    cnpjCpf: { type: 'string', pattern: /^(\d{11}|\d{14})$/, optional: true },
    nome: optStr(2, 60),
    ie: optStr(2, 14, { pattern: /^(\d{2,14}|ISENTO)$/ }),
    endereco: optStr(1, 60),
    municipio: optStr(1, 60),
    uf: optStr(2, 2, UF_RULE),
  }, { optional: true }),
  veiculo: obj({
    placa: str(7, 7, { pattern: /^[A-Z0-9]{7}$/ }),
    uf: optStr(2, 2, UF_RULE),
    rntc: optStr(1, 20),
  }, { optional: true }),
  volumes: {
    type: 'array', optional: true, max: 5000,
    items: obj({
      quantidade: { ...int(0, 999999999999999), optional: true },
      especie: optStr(1, 60),
      marca: optStr(1, 60),
      numeracao: optStr(1, 60),
      pesoLiquido: optWeight,
      pesoBruto: optWeight,
    }),
  },
}, { optional: true });

export const cobrancaSchema = obj({
  fatura: obj({
    numero: str(1, 60),
    valorOriginal: money,
    valorDesconto: optMoney,
    valorLiquido: money,
  }, { optional: true }),
  duplicatas: {
    type: 'array', optional: true, min: 1, max: 120,
    items: obj({
      numero: str(1, 60),
      vencimento: { type: 'string', pattern: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/ },
      valor: money,
    }),
  },
}, { optional: true });

export const cartaoSchema = obj({
  tpIntegra: oneOf([1, 2]),
  cnpjInstituicao: { type: 'string', pattern: DIGITS('14'), optional: true },
  bandeira: { type: 'string', pattern: DIGITS('2'), optional: true },
  autorizacao: optStr(1, 128),
  idTerminal: optStr(1, 40),
  cnpjRecebedor: { type: 'string', pattern: DIGITS('14'), optional: true },
}, { optional: true });

/** tPag values of NT 2020.006/2023.004 accepted by layout 4.00. */
export const FORMAS_PAGAMENTO = [
  '01', '02', '03', '04', '05', '10', '11', '12', '13', '15', '16', '17', '18', '19', '20', '21', '22', '90', '99',
] as const;

export const pagamentoSchema = obj({
  forma: oneOf(FORMAS_PAGAMENTO),
  valor: money,
  indPag: { ...oneOf([0, 1]), optional: true },
  descricao: optStr(2, 60),
  cartao: cartaoSchema,
});

export const processoReferenciadoSchema = obj({
  numero: str(1, 60),
  origem: oneOf([0, 1, 2, 3, 4, 9]),
  tipoAto: { type: 'string', pattern: DIGITS('2'), optional: true },
});

const commonProps = {
  issuerId: { type: 'uuid', optional: true },
  serie: { ...int(0, 999), optional: true },
  numero: { ...int(1, 999999999), optional: true },
  items: { type: 'array', min: 1, max: 990, items: itemSchema },
  pagamentos: { type: 'array', min: 1, max: 100, items: pagamentoSchema },
  troco: optMoney,
  cobranca: cobrancaSchema,
  informacoesComplementares: optStr(1, 5000),
  informacoesFisco: optStr(1, 2000),
  processosReferenciados: { type: 'array', optional: true, max: 100, items: processoReferenciadoSchema },
  resolverTributacao: { type: 'boolean', optional: true, description: 'Tributação assistida (plano com fiscalBrain e emissor com fiscalBrainEnabled, senão 403 TRIBUTACAO_ASSISTIDA_INDISPONIVEL): item sem ibsCbs ou só com cClassTrib recebe o grupo IBS/CBS da classe (única candidata do NCM, classe guardada do produto ou a enviada) e, no Simples, CSOSN 102 em venda simples; recusas 422 NCM_MULTICLASSE, NCM_SEM_CLASSE_AUTOMATICA, CCLASSTRIB_INVALIDO_PARA_NCM, CCLASSTRIB_INADMISSIVEL_NO_MODELO, CCLASSTRIB_EXIGE_GRUPO (classe que exige gTribRegular, gCredPresOper, gEstornoCred, monofasia ou diferimento), ESPELHO_FISCAL_DIVERGENTE com details.itensNaoResolvidos[], antes da numeração. Operação que não é venda (bonificação, doação, transferência…): envie em ibsCbs.cClassTrib a classe da operação (ex.: 410001), aceita sem ser candidata do NCM. A resposta traz tributacaoResolvida[], guardada com a nota: a repetição com a mesma Idempotency-Key a devolve igual.' },
};

/** Top-level properties of the NF-e body (without `$$strict`, so the batch can nest them). */
export const nfeBodyProps = {
  ...commonProps,
  naturezaOperacao: optStr(1, 60, { default: 'Venda de Mercadoria' }),
  tpNF: oneOf([0, 1], { default: 1 }),
  idDest: { ...oneOf([1, 2, 3]), optional: true },
  indFinal: { ...oneOf([0, 1]), optional: true },
  indPres: oneOf([0, 1, 2, 3, 4, 5, 9], { default: 1 }),
  indIntermed: { ...oneOf([0, 1]), optional: true },
  finNFe: oneOf([1, 2, 3, 4, 5, 6], { default: 1 }),
  // Count (max 500) and key format answer 422 REFERENCIADA_INVALIDA (API.md, emission rule 7);
  // the schema only bounds the array against abuse.
  referenciadas: { type: 'array', optional: true, max: 5000, items: referenciadaSchema },
  destinatario: destinatarioSchema,
  transporte: transporteSchema,
  // dhSaiEnt (B10). Calendar and year range answer 400 in lib/nfe/validate.ts.
  dataSaidaEntrada: {
    type: 'string', optional: true, pattern: DATA_SAIDA_ENTRADA_PATTERN,
    messages: { stringPattern: "O campo '{field}' deve ser data e hora ISO 8601 com fuso, ex.: 2026-11-25T14:30:00-03:00." },
    description: 'Data e hora de saída/entrada da mercadoria (dhSaiEnt), ISO 8601 com segundos e fuso (Z ou ±hh:mm); gravada no horário de Brasília e impressa no DANFE.',
  },
};

export const nfceBodyProps = {
  ...commonProps,
  items: { type: 'array', min: 1, max: 990, items: nfceItemSchema },
  naturezaOperacao: optStr(1, 60, { default: 'Venda de Mercadoria' }),
  indPres: oneOf([1, 2, 3, 4, 5, 9], { default: 1 }),
  contingencia: { type: 'boolean', optional: true },
  // 15-256 answers 422 JUSTIFICATIVA_CONTINGENCIA_INVALIDA, never truncated (rules/nfce.ts).
  justificativaContingencia: { type: 'string', optional: true },
  destCPF: { type: 'string', pattern: /^(\d{11}|\d{14})$/, optional: true },
  destNome: optStr(2, 60),
};

export const nfeBodySchema = { $$strict: true, ...nfeBodyProps };
export const nfceBodySchema = { $$strict: true, ...nfceBodyProps };
export const nfeBatchBodySchema = {
  $$strict: true,
  notas: { type: 'array', min: 1, max: 100, items: obj(nfeBodyProps) },
};
