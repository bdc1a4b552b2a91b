/**
 * Request schemas of the Issuer resource (fastest-validator, plain data; the same objects feed the
 * OpenAPI document). Field names follow API.md, Resources > Issuer, plus what an NF-e emitter group
 * (emit, C01-C21 of MOC 4.00) needs. Rules that a schema cannot express (check digits, IBGE code
 * against UF) live in ./rules.ts.
 */

import { FISCAL_TEXT_MESSAGE, FISCAL_TEXT_PATTERN } from '../emission/fiscal-text.js';
import { pageParams } from '../pagination/page.js';
import { BASE64_TEXT } from '../validation/base64.js';

/**
 * The issuer's texts are written into every document it emits (emit, C03-C10), where the layout
 * types them as TString (Latin-1, no space at either end). Refused here with 400 naming the field:
 * accepted, a BOM or a combining accent made each later emission fail the XSD (422 XML_FORA_DO_ESQUEMA).
 */
const layoutText = { pattern: FISCAL_TEXT_PATTERN, messages: { stringPattern: FISCAL_TEXT_MESSAGE } } as const;

export const UFS = ['AC', 'AL', 'AM', 'AP', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MG', 'MS', 'MT', 'PA', 'PB', 'PE', 'PI', 'PR', 'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO'] as const;

/** Highest series of an ordinary issuer (MOC 4.00, B07: 890-899 avulsa, 900-999 SCAN/contingency). */
export const MAX_ORDINARY_SERIES = 889;

/** Address rules; every key is optional here so an incomplete record can be saved and completed later. */
export const enderecoRules = {
  logradouro: { type: 'string', min: 2, max: 60, ...layoutText, description: 'xLgr' },
  numero: { type: 'string', min: 1, max: 60, ...layoutText, description: 'nro (use "SN" sem número)' },
  complemento: { type: 'string', min: 1, max: 60, ...layoutText, description: 'xCpl' },
  bairro: { type: 'string', min: 2, max: 60, ...layoutText, description: 'xBairro' },
  codigoMunicipio: { type: 'string', pattern: /^\d{7}$/, description: 'Código IBGE do município (7 dígitos); deve pertencer à uf' },
  municipio: { type: 'string', min: 2, max: 60, ...layoutText, description: 'Nome do município; preenchido pela tabela IBGE quando ausente' },
  uf: { type: 'enum', values: [...UFS] },
  cep: { type: 'string', pattern: /^\d{8}$/, description: '8 dígitos, sem hífen' },
  telefone: { type: 'string', pattern: /^\d{6,14}$/, description: 'DDD + número, só dígitos' },
} as const;

/** Fields of the issuer other than the environment; each may be absent at creation unless `required`. */
export const issuerFieldRules = {
  cnpj: { type: 'string', pattern: /^[0-9A-Z]{12}\d{2}$/, description: 'CNPJ sem pontuação, 14 caracteres (alfanumérico aceito); dígitos verificadores conferidos' },
  razaoSocial: { type: 'string', min: 2, max: 60, ...layoutText },
  nomeFantasia: { type: 'string', min: 1, max: 60, ...layoutText },
  ie: { type: 'string', pattern: /^(\d{2,14}|ISENTO)$/, description: 'Inscrição estadual (2-14 dígitos) ou ISENTO em maiúsculas' },
  inscricaoMunicipal: { type: 'string', pattern: /^[0-9A-Za-z]{1,15}$/ },
  cnae: { type: 'string', pattern: /^\d{7}$/, description: 'CNAE fiscal, 7 dígitos' },
  crt: { type: 'enum', values: [1, 2, 3, 4], description: '1 Simples Nacional, 2 Simples com excesso de sublimite, 3 Regime normal, 4 MEI' },
  endereco: { type: 'object', strict: true, props: Object.fromEntries(Object.entries(enderecoRules).map(([k, r]) => [k, { ...r, optional: true }])) },
  serieNfe: { type: 'number', integer: true, min: 0, max: MAX_ORDINARY_SERIES, description: 'Série padrão da NF-e (padrão 1)' },
  serieNfce: { type: 'number', integer: true, min: 0, max: MAX_ORDINARY_SERIES, description: 'Série padrão da NFC-e (padrão 1)' },
  serieNfse: { type: 'number', integer: true, min: 0, max: 99999, description: 'Série padrão da DPS/NFS-e (padrão 1)' },
  csc: { type: 'string', pattern: /^[\x21-\x7E]{1,36}$/, description: 'CSC da NFC-e: caracteres imprimíveis, sem espaços, até 36. Só escrita: as leituras o mostram mascarado (AB...yz)' },
  cscId: { type: 'string', pattern: /^\d{1,6}$/, description: 'Identificador do CSC, 1-6 dígitos' },
  servicoPadraoLc116: { type: 'string', pattern: /^\d{1,2}\.\d{2}$/, description: 'Item da lista da LC 116/2003, ex. 1.07' },
  cTribNacPadrao: { type: 'string', pattern: /^\d{6}$/, description: 'Código de tributação nacional (6 dígitos)' },
  codigoNbsPadrao: { type: 'string', pattern: /^\d{9}$/, description: 'NFS-e: código NBS padrão do serviço (9 dígitos), usado por resolverTributacao' },
  tribIssqnPadrao: { type: 'enum', values: [1, 2, 3, 4], description: 'NFS-e: tribISSQN padrão (1 operação tributável, 2 imunidade, 3 exportação, 4 não incidência), usado por resolverTributacao' },
  indDestPadrao: { type: 'enum', values: [0, 1], description: 'NFS-e: indDest padrão do grupo IBS/CBS (0 o tomador é o destinatário), usado por resolverTributacao' },
  regEspTribPadrao: { type: 'enum', values: [0, 1, 2, 3, 4, 5, 6, 9], description: 'NFS-e: regime especial de tributação padrão (regEspTrib; 0 nenhum), usado por resolverTributacao' },
  email: { type: 'string', min: 1, max: 80, pattern: /^[^\s@]+@[^\s@]+\.[^\s@]+$/, description: 'NFS-e: e-mail do prestador (prest/email da DPS)' },
  pTotTribSNPadrao: { type: 'decimal', intDigits: 2, fracDigits: 2, min: 0, description: 'Percentual aproximado de tributos do Simples (pTotTribSN da DPS: TSDec2V2, até 99,99)' },
  pTotTribSNCompetencia: { type: 'string', pattern: /^\d{4}-(0[1-9]|1[0-2])$/, description: 'AAAA-MM' },
  fiscalBrainEnabled: { type: 'boolean', description: 'Tributação assistida (resolverTributacao: true) nas NF-e/NFC-e deste emissor; exige também plano com fiscalBrain (Growth, Scale, Enterprise), senão 403 TRIBUTACAO_ASSISTIDA_INDISPONIVEL' },
  valorAproximadoTributosEnabled: { type: 'boolean', description: 'NF-e/NFC-e com o valor aproximado dos tributos (Lei 12.741): calculado pelo serviço por NCM, UF do emissor e origem, com a tabela da UF carregada pelo operador; item sem alíquota vigente recusa 422 TRIBUTOS_APROXIMADOS_INDISPONIVEIS' },
  sefazUrl: { type: 'url', description: 'Endpoint da autoridade (ex. simulador); null = tabela oficial' },
  formatoDanfe: { type: 'enum', values: [1, 2, 3], description: 'Formato do DANFE das NF-e seguintes (tpImp, B21): 1 retrato (padrão), 2 paisagem, 3 simplificado (etiqueta, NT 2020.004)' },
} as const;

export type IssuerField = keyof typeof issuerFieldRules;

/** Fields `""` may clear (API.md, PATCH). Identity, defaults and booleans cannot be blank. */
export const CLEARABLE_FIELDS: ReadonlySet<string> = new Set([
  'nomeFantasia', 'ie', 'inscricaoMunicipal', 'cnae', 'crt', 'endereco', 'csc', 'cscId', 'servicoPadraoLc116',
  'cTribNacPadrao', 'pTotTribSNPadrao', 'pTotTribSNCompetencia', 'sefazUrl',
  'codigoNbsPadrao', 'tribIssqnPadrao', 'indDestPadrao', 'regEspTribPadrao', 'email',
  ...Object.keys(enderecoRules).map((k) => `endereco.${k}`),
]);

function optionalNullable<T extends Record<string, any>>(rules: T): Record<keyof T, any> {
  return Object.fromEntries(Object.entries(rules).map(([k, r]) => [k, { ...r, optional: true, nullable: true }])) as Record<keyof T, any>;
}

/** POST /v1/companies. `null` on an optional field means "not informed". */
export const createIssuerSchema = {
  $$strict: true,
  ...optionalNullable(issuerFieldRules),
  cnpj: { ...issuerFieldRules.cnpj },
  razaoSocial: { ...issuerFieldRules.razaoSocial },
  endereco: { ...issuerFieldRules.endereco, optional: true, nullable: true, props: optionalNullable(enderecoRules) },
  ambienteFiscal: { type: 'equal', value: 2, optional: true, description: 'Todo emissor começa em homologação (2)' },
  sandbox: { type: 'boolean', optional: true, description: 'Emissor de testes: aceita chave ek_test_ (padrão false)' },
} as const;

/** PATCH body as validated once nulls and `""` have been taken out (see ./patch.ts). */
export const patchIssuerSchema = {
  $$strict: true,
  ...Object.fromEntries(Object.entries(issuerFieldRules).map(([k, r]) => [k, { ...r, optional: true }])),
  endereco: { ...issuerFieldRules.endereco, optional: true },
  ambienteFiscal: { type: 'enum', values: [1, 2], optional: true },
  sandbox: { type: 'boolean', optional: true },
} as const;

/**
 * What the PATCH route declares for the gateway and the OpenAPI document: every key is accepted
 * as any JSON value (null keeps, "" clears) and validated by ./patch.ts; unknown keys still refuse
 * 400 with camposDesconhecidos.
 */
export const patchIssuerDocSchema = {
  $$strict: true,
  ...Object.fromEntries(Object.keys(patchIssuerSchema).filter((k) => !k.startsWith('$$')).map((k) => {
    const rule = (patchIssuerSchema as Record<string, any>)[k];
    const clear = CLEARABLE_FIELDS.has(k) ? '"" limpa' : '"" não permitido';
    return [k, { type: 'any', optional: true, description: `${rule.description ?? rule.type}. Ausente ou null mantém; ${clear}.` }];
  })),
} as const;

/** POST /v1/companies/:id/certificate. Size: a PKCS#12 A1 is 3-10 KB; 64 KB of base64 is plenty. */
export const MAX_PFX_BASE64 = 65_536;
export const certificateUploadSchema = {
  $$strict: true,
  id: { type: 'uuid' },
  pfxBase64: { type: 'string', min: 4, max: MAX_PFX_BASE64, pattern: BASE64_TEXT, description: 'Arquivo .pfx/.p12 (PKCS#12) em base64; até 64 KB' },
  password: { type: 'string', min: 1, max: 128, description: 'Senha do PKCS#12 (nunca é devolvida nem registrada em log)' },
} as const;

/**
 * PUT /v1/companies/:id/logo. The image limit is 256 KB (lib/issuer/logo.ts: 422 LOGO_GRANDE_DEMAIS);
 * the text is allowed up to 1 MB decoded so an oversized logo gets that catalogued answer, and only
 * text beyond it the schema's 400.
 */
export const MAX_LOGO_BASE64 = 1_398_104;
export const logoUploadSchema = {
  $$strict: true,
  id: { type: 'uuid' },
  imagemBase64: { type: 'string', min: 4, max: MAX_LOGO_BASE64, pattern: BASE64_TEXT, description: 'Logotipo PNG ou JPEG em base64; até 256 KB de imagem, de 32 a 2000 pixels por lado' },
} as const;

/** GET /v1/companies: oldest first, a page at a time (lib/pagination/page.ts). */
export const issuerListSchema = { $$strict: true, ...pageParams } as const;

/** GET /v1/admin/transfer-requests, oldest first. */
export const transferListSchema = {
  $$strict: true,
  status: { type: 'enum', values: ['PENDENTE', 'APROVADA', 'RECUSADA'], optional: true },
  ...pageParams,
} as const;

export const transferApprovalSchema = { $$strict: true, id: { type: 'uuid' } } as const;
export const transferRejectionSchema = { $$strict: true, id: { type: 'uuid' }, motivo: { type: 'string', min: 3, max: 500, optional: true } } as const;

export const transferRequestSchema = {
  $$strict: true,
  cnpj: { type: 'string', min: 14, max: 18, description: 'CNPJ do emissor cadastrado em outra conta (pontuação aceita)' },
  motivo: { type: 'string', min: 10, max: 500, description: 'Por que esta conta deve assumir o CNPJ' },
  contato: { type: 'string', min: 3, max: 120, optional: true, description: 'E-mail ou telefone para o suporte confirmar a transferência' },
} as const;
