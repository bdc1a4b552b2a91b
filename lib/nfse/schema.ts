/**
 * Request schema of POST /v1/nfse (API.md, "NFS-e payload", "Precision rules"), national standard
 * DPS layout 1.01. Plain fastest-validator data: compiled by lib/nfse/validate.ts and turned into
 * OpenAPI by the same generator as the NF-e bodies.
 *
 * Every object is strict (unknown keys answer 400 with details.camposDesconhecidos). The spec names
 * `dpsNacional` sizes; it says "not shown" for `tomador`, `servico`, `competencia` and `ibsCbs`, so
 * their types and lengths come from the DPS XSD (tiposSimples_v1.01.xsd, named per field below).
 * Codes with leading zeros are strings; one-digit codes are integers, as in the NF-e body.
 *
 * Fields the 422 rules read (`rps`, `retencoes.pis/cofins/outrasRetencoes`, the pairs of rules 3
 * and 4) are accepted here so the caller gets the catalogued code of lib/nfse/rules/. `tpRetISSQN`
 * has no schema default: rule 4 must see whether it was sent, and writes 1 when neither side is.
 * Fields assisted taxation can fill (rule 10) are optional here; lib/nfse/validate.ts requires
 * them when `resolverTributacao` is not true.
 */

/** TSDec15V2: money, up to 15 integer and 2 decimal digits (NFS-e rule 1). */
const money = { type: 'decimal', intDigits: 15, fracDigits: 2, min: 0 } as const;
const optMoney = { ...money, optional: true } as const;
/** TSDec3V2: percentages of the IBS/CBS deferral. */
const pct3v2 = { type: 'decimal', intDigits: 3, fracDigits: 2, min: 0, max: 100 } as const;

/**
 * TSString of the layout: Latin-1 printable characters, no leading or trailing space (the XSD
 * pattern `[!-ÿ]{1}[ -ÿ]{0,}[!-ÿ]{1}|[!-ÿ]{1}`), so the authority's schema never sees a value
 * ours accepted and it would refuse.
 */
const TSSTRING = /^[!-ÿ](?:[ -ÿ]*[!-ÿ])?$/;
const LATIN1_TEXT = 'texto Latin-1 sem espaços nas pontas';

/** Any text XML 1.0 can carry (§2.2 Char), line breaks included: for xs:string fields without TSString. */
const XML_CHARS = /^(?:[\t\n\r\u0020-\uD7FF\uE000-\uFFFD]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;
const XML_TEXT = { stringPattern: "O campo '{field}' contém caracteres que o XML não aceita." };

const text = (min: number, max: number) => ({ type: 'string', min, max, pattern: TSSTRING, messages: { stringPattern: `O campo '{field}' deve ser ${LATIN1_TEXT}.` } });
const optText = (min: number, max: number) => ({ ...text(min, max), optional: true });
const digits = (n: string, extra: Record<string, unknown> = {}) => ({ type: 'string', pattern: new RegExp(`^\\d{${n}}$`), ...extra });
const optDigits = (n: string) => digits(n, { optional: true });
const oneOf = (values: readonly (number | string)[], extra: Record<string, unknown> = {}) => ({ type: 'enum', values: [...values], ...extra });
const optOneOf = (values: readonly (number | string)[]) => oneOf(values, { optional: true });
const obj = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', strict: true, props, ...extra });

/** TSTipoCST (PIS/COFINS situation codes accepted by the DPS). */
export const CST_PIS_COFINS = [
  '00', '01', '02', '03', '04', '05', '06', '07', '08', '09', '49', '50', '51', '52', '53', '54', '55', '56',
  '60', '61', '62', '63', '64', '65', '66', '67', '70', '71', '72', '73', '74', '75', '98', '99',
] as const;

/** Accepted (never written in the national standard): its presence refuses 422 RPS_SEM_CAMPO_NO_PADRAO_NACIONAL. */
export const rpsSchema = obj({
  numero: { type: 'number', integer: true, min: 1, max: 999999999999999, optional: true },
  serie: { type: 'string', min: 1, max: 5, optional: true },
  tipo: optOneOf([1, 2, 3]),
}, { optional: true });

export const dpsNacionalSchema = obj({
  opSimpNac: optOneOf([1, 2, 3]),
  // Required with crt 2 (422 CRT2_SEM_REGIME_APURACAO, rule 7), so optional here.
  regApTribSN: optOneOf([1, 2, 3]),
  regEspTrib: oneOf([0, 1, 2, 3, 4, 5, 6, 9], { default: 0 }),
  cTribNac: optDigits('6'),
  cTribMun: optDigits('3'),
  tribISSQN: optOneOf([1, 2, 3, 4]),
  tpRetISSQN: optOneOf([1, 2, 3]),
  cstPisCofins: optOneOf(CST_PIS_COFINS),
  tpRetPisCofins: optOneOf([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
  // The spec says 3v2; the layout's pTotTribSN is TSDec2V2, so the value stops at 99.99 (400).
  pTotTribSN: { type: 'decimal', intDigits: 3, fracDigits: 2, min: 0, max: 99.99, optional: true },
}, { optional: true });

/** TCEndereco with endNac: TSLogradouro 255, TSNumeroEndereco 60, TSComplementoEndereco 156, TSBairro 60. */
export const tomadorEnderecoSchema = obj({
  logradouro: text(1, 255),
  numero: text(1, 60),
  complemento: optText(1, 156),
  bairro: text(1, 60),
  codigoMunicipio: digits('7'),
  cep: digits('8'),
}, { optional: true });

/** TCInfoPessoa: TSCNPJ/TSCPF, TSNomeRazaoSocial 1-300, TSInscMun 1-15, TSEmail 1-80, TSTelefone 6-20 digits. */
export const tomadorSchema = obj({
  cnpjCpf: { type: 'string', pattern: /^(\d{11}|\d{14})$/ },
  razaoSocial: { type: 'string', min: 1, max: 300, pattern: TSSTRING, messages: { stringPattern: `O campo '{field}' deve ser ${LATIN1_TEXT}.` } },
  inscricaoMunicipal: { type: 'string', min: 1, max: 15, pattern: XML_CHARS, messages: XML_TEXT, optional: true },
  email: optText(1, 80),
  telefone: optDigits('6,20'),
  endereco: tomadorEnderecoSchema,
}, { optional: true });

/**
 * TCServ/TCCServ and TCInfoValores: xDescServ TSDesc2000 (line breaks allowed), cNBS 9 digits,
 * cLocPrestacao 7 digits, cTribMun 3 digits, pAliq TSDec1V2 (one integer digit: up to 9.99%).
 * `itemListaServico` is the LC 116 item (`01.01` or `0101`); the DPS carries the service as
 * cTribNac, so the item is kept for assisted taxation and not written.
 */
export const servicoSchema = obj({
  valorServicos: money,
  discriminacao: { type: 'string', min: 1, max: 2000, pattern: XML_CHARS, messages: XML_TEXT },
  itemListaServico: { type: 'string', pattern: /^\d{2}\.?\d{2}$/, optional: true },
  codigoNBS: optDigits('9'),
  codigoMunicipio: optDigits('7'),
  codigoTributacaoMunicipio: optDigits('3'),
  aliquotaIss: { type: 'decimal', intDigits: 1, fracDigits: 2, min: 0, optional: true },
  descontoIncondicionado: optMoney,
  descontoCondicionado: optMoney,
  valorDeducoes: optMoney,
});

/** Rule 6: inss, irrf and csll are written; pis, cofins and outrasRetencoes have no tag (422 when not 0). */
export const retencoesSchema = obj({
  issRetidoPor: optOneOf([1, 2, 3]),
  inss: optMoney,
  irrf: optMoney,
  csll: optMoney,
  pis: optMoney,
  cofins: optMoney,
  outrasRetencoes: optMoney,
}, { optional: true });

/**
 * IBSCBS (TCRTCInfoIBSCBS) passthrough: CST 3 digits, cClassTrib 6, cCredPres 2, cIndOp 6,
 * finNFSe only 0 in 1.01, indDest/indFinal 0-1, tpEnteGov 1-4, tpOper 1-5, gDif TSDec3V2.
 * cst, cClassTrib and cIndOp are required when the group is sent; finNFSe and indDest too unless
 * assisted taxation fills them (lib/nfse/validate.ts).
 */
export const nfseIbsCbsSchema = obj({
  cst: optDigits('3'),
  cClassTrib: optDigits('6'),
  cCredPres: optDigits('2'),
  cIndOp: optDigits('6'),
  finNFSe: optOneOf([0]),
  indDest: optOneOf([0, 1]),
  indFinal: optOneOf([0, 1]),
  tpEnteGov: optOneOf([1, 2, 3, 4]),
  tpOper: optOneOf([1, 2, 3, 4, 5]),
  gDif: obj({ pDifUF: pct3v2, pDifMun: pct3v2, pDifCBS: pct3v2 }, { optional: true }),
  gTribRegular: obj({ cstReg: digits('3'), cClassTribReg: digits('6') }, { optional: true }),
}, { optional: true });

/** TSData: AAAA-MM-DD (the layout's own pattern checks the calendar; ours checks the shape). */
const DATE = /^20\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export const nfseBodyProps = {
  issuerId: { type: 'uuid' },
  rps: rpsSchema,
  // TSSerieDPS: up to 5 digits (API.md: default 1).
  serie: { type: 'number', integer: true, min: 0, max: 99999, default: 1 },
  dpsNacional: dpsNacionalSchema,
  // ABRASF-compatible fields: accepted, never written (rule 2). Types are this API's choice.
  naturezaOperacao: { type: 'string', min: 1, max: 60, optional: true },
  regimeTributacao: { type: 'number', integer: true, min: 0, max: 9, optional: true },
  optanteSimples: { type: 'boolean', optional: true },
  exigibilidadeISS: { type: 'number', integer: true, min: 1, max: 9, optional: true },
  competencia: { type: 'string', pattern: DATE, optional: true },
  tomador: tomadorSchema,
  servico: servicoSchema,
  retencoes: retencoesSchema,
  ibsCbs: nfseIbsCbsSchema,
  // xInfComp: TSDescInfCompl 1-2000 (TSString).
  informacoesComplementares: optText(1, 2000),
  resolverTributacao: { type: 'boolean', optional: true },
};

export const nfseBodySchema = { $$strict: true, ...nfseBodyProps };
