import { UFS } from '../issuer/schema.js';

/** Request schema (fastest-validator, strict) and response shape (OpenAPI) of GET /v1/sefaz/status. */
export const statusQuerySchema = {
  $$strict: true,
  uf: { type: 'enum', values: [...UFS], optional: true },
  ambiente: { type: 'enum', values: ['producao', 'homologacao'], optional: true },
} as const;

export const authorityStatusJson = {
  type: 'object',
  properties: {
    uf: { type: 'string' },
    ambiente: { type: 'string', enum: ['producao', 'homologacao'] },
    status: { type: ['string', 'null'], enum: ['up', 'down', null], description: 'Último estado confirmado pela autorizadora (107 up; 108/109 down); null antes da primeira confirmação. Falhas próprias do monitor (rede, timeout, certificado) nunca mudam este valor.' },
    cStat: { type: ['integer', 'null'], description: 'cStat da resposta que confirmou o estado, literal.' },
    xMotivo: { type: ['string', 'null'], description: 'xMotivo literal da autorizadora.' },
    checkedAt: { type: ['string', 'null'], format: 'date-time', description: 'Quando a autorizadora confirmou o estado atual pela última vez.' },
    changedAt: { type: ['string', 'null'], format: 'date-time', description: 'Última transição confirmada (ou primeira observação).' },
  },
};
