import { UFS } from '../issuer/schema.js';
import { BASE64_TEXT } from '../validation/base64.js';

/**
 * Request schemas (fastest-validator, strict) and response shapes (OpenAPI) of the approximate-tax
 * routes. A UF table in the IBPT layout is about 2 MB; base64 makes it 2.7 MB, inside the gateway's
 * 5 MB body limit.
 */
const ISO_DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export const importTableSchema = {
  $$strict: true,
  conteudo: { type: 'string', min: 4, max: 7_000_000, pattern: BASE64_TEXT, messages: { stringPattern: "O campo 'conteudo' deve ser o arquivo da tabela em base64." } },
  uf: { type: 'enum', values: [...UFS], optional: true },
  nomeArquivo: { type: 'string', min: 1, max: 200, optional: true },
} as const;

export const rateQuerySchema = {
  $$strict: true,
  uf: { type: 'enum', values: [...UFS] },
  ncm: { type: 'string', pattern: /^\d{8}$/ },
  origem: { type: 'number', integer: true, min: 0, max: 8, convert: true, optional: true },
  data: { type: 'string', pattern: ISO_DAY, optional: true },
} as const;

export const listTablesSchema = {
  $$strict: true,
  uf: { type: 'enum', values: [...UFS], optional: true },
} as const;

const day = { type: 'string', format: 'date' };

export const tableJson = {
  type: 'object',
  properties: {
    uf: { type: 'string' }, versao: { type: 'string' }, fonte: { type: 'string' }, chave: { type: 'string' },
    vigenciaInicio: day, vigenciaFim: day,
    linhas: { type: 'integer', description: 'Linhas de NCM (tipo 0) carregadas.' },
    ignoradas: { type: 'integer', description: 'Linhas de NBS/LC 116 (tipos 1 e 2), não usadas em NF-e/NFC-e.' },
    importadoEm: { type: 'string', format: 'date-time' },
  },
};

export const importResultJson = {
  type: 'object',
  properties: { ...tableJson.properties, substituida: { type: 'boolean', description: 'true quando esta versão da UF já existia e foi substituída.' } },
};

export const rateJson = {
  type: 'object',
  properties: {
    uf: { type: 'string' }, ncm: { type: 'string' }, descricao: { type: 'string' },
    nacionalFederal: { type: 'number', description: '% federal para mercadoria nacional (origens 0, 3, 4, 5, 8).' },
    importadosFederal: { type: 'number', description: '% federal para mercadoria estrangeira (origens 1, 2, 6, 7).' },
    estadual: { type: 'number' }, municipal: { type: 'number' },
    percentualAplicavel: { type: ['number', 'null'], description: 'Soma federal + estadual + municipal para a origem pedida; null sem origem.' },
    vigenciaInicio: day, vigenciaFim: day, versao: { type: 'string' }, chave: { type: 'string' }, fonte: { type: 'string' },
  },
};
