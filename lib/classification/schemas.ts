/**
 * Request schemas (fastest-validator, strict) and response shapes (OpenAPI) of the assisted-taxation
 * routes of goods: the operator's table versions, the pending list and the class confirmation.
 * API.md names `GET /v1/fiscal/classification/pendentes` (query issuerId) and
 * `POST /v1/fiscal/classification/classe` (body "not shown": `{ issuerId, codigo, cClassTrib, ncm? }`).
 */
import { BASE64_TEXT } from '../validation/base64.js';

const base64File = (what: string) => ({ type: 'string', min: 4, max: 2_000_000, pattern: BASE64_TEXT, messages: { stringPattern: `O campo deve ser o arquivo ${what} em base64.` } });

export const loadTablesSchema = {
  $$strict: true,
  versao: { type: 'string', min: 1, max: 40, pattern: /^[0-9A-Za-z][0-9A-Za-z._-]*$/, description: 'Nome da versão, ex. 2026-06-01 (data da tabela cClassTrib).' },
  cclasstrib: base64File('CSV da tabela cClassTrib (Portal Nacional da NF-e)'),
  cst: base64File('CSV da tabela de CST do IBS/CBS'),
  anexos: base64File('JSON dos anexos da LC 214/2025 por NCM'),
  aliquotas: base64File('CSV das alíquotas do IBS/CBS por ano'),
  aliquotasCbs: { ...base64File('CSV da tabela oficial de alíquotas da CBS (Portal Nacional da NF-e)'), optional: true },
} as const;

const ISSUER_ID = { type: 'string', min: 1, max: 64, pattern: /^[0-9A-Za-z-]+$/ };

export const pendingQuerySchema = {
  $$strict: true,
  issuerId: ISSUER_ID,
  page: { type: 'number', integer: true, min: 1, max: 100_000, convert: true, optional: true, default: 1 },
  limit: { type: 'number', integer: true, min: 1, max: 100, convert: true, optional: true, default: 50 },
} as const;

export const confirmClassSchema = {
  $$strict: true,
  issuerId: ISSUER_ID,
  codigo: { type: 'string', min: 1, max: 60 },
  cClassTrib: { type: 'string', pattern: /^\d{6}$/ },
  ncm: { type: 'string', pattern: /^\d{8}$/, optional: true, description: 'NCM do produto (8 dígitos); obrigatório quando o produto ainda não passou por uma emissão com resolverTributacao.' },
} as const;

export const candidateJson = {
  type: 'object',
  properties: {
    cClassTrib: { type: 'string' }, nome: { type: 'string' }, cst: { type: 'string' },
    pRedIBS: { type: 'number', description: 'Redução do IBS, %.' }, pRedCBS: { type: 'number', description: 'Redução da CBS, %.' },
    fundamentoLegal: { type: 'string', description: 'Artigo da LC 214/2025 e, quando houver, anexo e itens em que o NCM se enquadra.' },
    admitidaNFe: { type: 'boolean' }, admitidaNFCe: { type: 'boolean' },
  },
};

const FONTE_DESCRIPTION = 'De onde vêm as candidatas: anexos da LC 214/2025 por prefixo de NCM (correlação derivada, não oficial: classe candidata) e a tabela cClassTrib da versão em uso.';

export const productClassJson = {
  type: 'object',
  properties: {
    codigo: { type: 'string' }, ncm: { type: 'string' },
    cClassTrib: { type: ['string', 'null'] },
    origem: { type: 'string', enum: ['informado', 'confirmado', 'contador', 'pendente'] },
    motivo: { type: ['string', 'null'], enum: ['multiclasse', 'candidatas_alteradas', 'deslocou_confirmada', null] },
    cClassTribAnterior: { type: ['string', 'null'] },
    deslocouEm: { type: ['string', 'null'], format: 'date-time' },
  },
};

export const pendingJson = {
  type: 'object',
  properties: {
    total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' },
    versaoTabela: { type: ['string', 'null'] },
    fonte: { type: 'string', description: FONTE_DESCRIPTION },
    items: { type: 'array', items: { type: 'object', properties: { ...productClassJson.properties, atualizadoEm: { type: 'string', format: 'date-time' }, candidatas: { type: 'array', items: candidateJson } } } },
  },
};

export const confirmedJson = {
  type: 'object',
  properties: { ...productClassJson.properties, nome: { type: 'string' }, versaoTabela: { type: 'string' }, fonte: { type: 'string', description: FONTE_DESCRIPTION } },
};

export const tableSummaryJson = {
  type: 'object',
  properties: {
    versao: { type: 'string' }, classes: { type: 'integer' }, anexos: { type: 'integer', description: 'Itens de anexo da LC 214 com regras de NCM.' },
    carregadaEm: { type: 'string', format: 'date-time' }, emUso: { type: 'boolean', description: 'A versão carregada por último é a usada.' },
  },
};

export const loadResultJson = {
  type: 'object',
  properties: {
    ...tableSummaryJson.properties,
    substituida: { type: 'boolean', description: 'true quando a versão já existia e foi substituída.' },
    pendentesMarcados: { type: 'integer', description: 'Classes guardadas de produtos que deixaram de ser candidatas do seu NCM e passaram a pendente.' },
  },
};

/** `tributacaoResolvida[]` of an emission's answer. */
export const resolvedItemsJson = {
  type: 'array',
  description: 'Com resolverTributacao: por item resolvido, o que o serviço preencheu e de onde veio.',
  items: {
    type: 'object',
    properties: {
      index: { type: 'integer' }, codigo: { type: 'string' },
      ibsCbs: {
        type: 'object',
        properties: {
          cst: { type: 'string' }, cClassTrib: { type: 'string' }, nome: { type: 'string' },
          origem: { type: 'string', enum: ['ncm_unica', 'memoria', 'informada'], description: 'ncm_unica: única classe candidata do NCM; memoria: classe guardada do produto; informada: cClassTrib enviado.' },
          fonte: { type: 'string' },
          pIBSUF: { type: 'number' }, pIBSMun: { type: 'number' }, pCBS: { type: 'number' }, pRedIBS: { type: 'number' }, pRedCBS: { type: 'number' },
        },
      },
      csosn: { type: 'string', description: 'CSOSN preenchido (102) para emissor do Simples.' },
    },
  },
};
