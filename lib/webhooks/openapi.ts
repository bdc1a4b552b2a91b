import type { JsonSchema } from '../http/openapi-components.js';
import { DOCUMENT_STATUSES } from '../emission/state.js';
import { NFSE_STATUSES } from '../emission/nfse/state.js';
import { CONTINGENCY_REASONS } from '../emission/contingency.js';
import { TEST_EVENT_TYPE } from './events.js';

/**
 * The OpenAPI 3.1 `webhooks` section: what a partner's endpoint receives, one entry per event type
 * the platform produces, with the schema of its `data` (the builders are lib/emission/document.ts
 * eventData, fiscal-events.ts canceledEventData, contingency-event.ts, nfse/document.ts
 * nfseEventData, the certificate-expiry job and the availability monitor). The schemas are closed
 * (`additionalProperties: false`), so a field added to a payload without being documented here
 * fails test/e2e/webhook-payload-schemas.test.ts, which checks real outbox rows against them.
 * Types in the spec's list that nothing produces yet (mdfe.*, cte.*, dfe.received) are not here.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const closed = (required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', required, properties, additionalProperties: false });

const ERRO = closed(['codigo', 'descricao'], { codigo: { type: 'string' }, descricao: { type: 'string' } });
const AMOUNT: JsonSchema = { type: 'string', pattern: '^\\d+\\.\\d{2}$', description: 'Valor total em reais, decimal com duas casas.' };

/** Fields of every NF-e/NFC-e invoice event (eventData); the variants add their own. */
const INVOICE_FIELDS: Record<string, JsonSchema> = {
  invoiceId: { type: 'string', format: 'uuid' },
  model: { type: 'string', enum: ['55', '65'] },
  number: { type: 'integer' },
  series: { type: 'integer' },
  accessKey: { ...nullable({ type: 'string', pattern: '^\\d{44}$' }), description: 'null numa rejeição (a chave não foi registrada).' },
  status: { type: 'string', enum: [...DOCUMENT_STATUSES] },
  amount: AMOUNT,
  erros: { type: 'array', items: ERRO, description: 'Motivos da autoridade (rejeição, denegação, falha).' },
  emitidaEmContingencia: { type: 'boolean', const: true, description: 'Presente quando a nota foi emitida em contingência (tpEmis ≠ 1).' },
  issuerId: { type: 'string', format: 'uuid' },
  cnpj: { ...nullable({ type: 'string', pattern: '^\\d{14}$' }), description: 'CNPJ do emitente (da chave de acesso); null sem chave.' },
  links: closed(['self', 'xml', 'eventos', 'danfe', 'danfeHtml'], {
    self: { type: 'string' }, xml: { type: 'string' }, eventos: { type: 'string' }, danfe: { type: 'string' }, danfeHtml: { type: 'string' },
  }),
  protocol: nullable({ type: 'string', pattern: '^\\d{15}$' }),
  cStat: { type: 'integer', description: 'Numa rejeição: o código do primeiro erro.' },
  xMotivo: { type: 'string', description: 'Numa rejeição: o texto do primeiro erro.' },
};
const INVOICE_REQUIRED = ['invoiceId', 'model', 'number', 'series', 'accessKey', 'status', 'amount', 'issuerId', 'cnpj', 'links'];

const { emitidaEmContingencia: _e, protocol: _p, cStat: _c, xMotivo: _x, ...CANCELED_BASE } = INVOICE_FIELDS;
const { emitidaEmContingencia: _ce, ...CONTINGENCY_BASE } = INVOICE_FIELDS;

export const WEBHOOK_COMPONENTS: Record<string, JsonSchema> = {
  WebhookNotaFiscal: { ...closed([...INVOICE_REQUIRED, 'protocol'], INVOICE_FIELDS), description: 'NF-e ou NFC-e autorizada ou rejeitada.' },
  WebhookNotaCancelada: {
    ...closed([...INVOICE_REQUIRED, 'protocolo', 'justificativa', 'canceladaEm'], {
      ...CANCELED_BASE,
      protocolo: nullable({ type: 'string' }), justificativa: { type: 'string' }, canceladaEm: nullable({ type: 'string', format: 'date-time' }),
    }),
    description: 'NF-e ou NFC-e cancelada (evento 110111 registrado).',
  },
  WebhookNotaContingencia: {
    ...closed([...INVOICE_REQUIRED, 'protocol', 'qrCode', 'contingencia'], {
      ...CONTINGENCY_BASE,
      qrCode: nullable({ type: 'string' }),
      contingencia: closed(['motivo', 'justificativa', 'prazo'], {
        motivo: { type: 'string', enum: [...CONTINGENCY_REASONS] }, justificativa: { type: 'string' }, prazo: { type: 'string', format: 'date-time' },
      }),
    }),
    description: 'NFC-e emitida em contingência offline (tpEmis 9), ou expirada sem transmissão em 24 h.',
  },
  WebhookNfse: {
    ...closed(['nfseId', 'model', 'number', 'series', 'idDps', 'accessKey', 'chaveAcesso', 'numeroNfse', 'status', 'amount', 'issuerId', 'cnpj', 'links'], {
      nfseId: { type: 'string', format: 'uuid' },
      model: { type: 'string', const: 'NFSe' },
      number: { type: 'integer', description: 'nDPS' },
      series: { type: 'integer', description: 'série da DPS' },
      idDps: { type: 'string' },
      accessKey: { ...nullable({ type: 'string', pattern: '^\\d{50}$' }), description: 'A chave de acesso da NFS-e (50 dígitos), o mesmo campo das notas: null numa rejeição.' },
      chaveAcesso: { ...nullable({ type: 'string', pattern: '^\\d{50}$' }), description: 'O mesmo valor de accessKey, com o nome da Sefin.' },
      numeroNfse: nullable({ type: 'string' }),
      status: { type: 'string', enum: [...NFSE_STATUSES] },
      amount: AMOUNT,
      erros: { type: 'array', items: ERRO },
      issuerId: { type: 'string', format: 'uuid' },
      cnpj: nullable({ type: 'string', pattern: '^\\d{14}$' }),
      codigo: { type: 'string', description: 'Numa rejeição: o código do primeiro erro da Sefin.' },
      descricao: { type: 'string', description: 'Numa rejeição: a descrição do primeiro erro da Sefin.' },
      links: closed(['self', 'xml', 'cancelamento', 'danfse', 'danfseHtml'], {
        self: { type: 'string' }, xml: { type: 'string' }, cancelamento: { type: 'string' }, danfse: { type: 'string' }, danfseHtml: { type: 'string' },
      }),
    }),
    description: 'NFS-e (DPS nacional) autorizada, rejeitada ou cancelada.',
  },
  WebhookCertificadoExpirando: closed(['issuerId', 'cnpj', 'daysUntilExpiry', 'notAfter', 'serial'], {
    issuerId: { type: 'string', format: 'uuid' }, cnpj: { type: 'string' }, daysUntilExpiry: { type: 'integer' },
    notAfter: { type: 'string', format: 'date-time' }, serial: { type: 'string' },
  }),
  WebhookStatusSefaz: closed(['uf', 'status', 'cStat', 'xMotivo', 'ambiente', 'checkedAt'], {
    uf: { type: 'string', pattern: '^[A-Z]{2}$' }, status: { type: 'string', enum: ['up', 'down'] }, cStat: { type: 'integer' },
    xMotivo: { type: 'string' }, ambiente: { type: 'string', enum: ['producao', 'homologacao'] }, checkedAt: { type: 'string', format: 'date-time' },
  }),
  WebhookTeste: closed(['message'], { message: { type: 'string' } }),
};

/** The `data` schema of each event type the platform sends. */
export const WEBHOOK_DATA: Readonly<Record<string, JsonSchema>> = {
  'invoice.authorized': { oneOf: [ref('WebhookNotaFiscal'), ref('WebhookNfse')] },
  'invoice.rejected': { oneOf: [ref('WebhookNotaFiscal'), ref('WebhookNfse')] },
  'invoice.canceled': { oneOf: [ref('WebhookNotaCancelada'), ref('WebhookNfse')] },
  'invoice.contingency': ref('WebhookNotaContingencia'),
  'invoice.contingency.expired': ref('WebhookNotaContingencia'),
  'certificate.expiring': ref('WebhookCertificadoExpirando'),
  'sefaz.status.changed': ref('WebhookStatusSefaz'),
  [TEST_EVENT_TYPE]: ref('WebhookTeste'),
};

const SUMMARY: Readonly<Record<string, string>> = {
  'invoice.authorized': 'Documento autorizado pela autoridade',
  'invoice.rejected': 'Documento rejeitado pela autoridade',
  'invoice.canceled': 'Documento cancelado',
  'invoice.contingency': 'NFC-e emitida em contingência offline',
  'invoice.contingency.expired': 'NFC-e em contingência não transmitida no prazo',
  'certificate.expiring': 'Certificado A1 do emitente perto do vencimento (30, 15, 7, 3 e 1 dia)',
  'sefaz.status.changed': 'Autorizadora de uma UF mudou de disponibilidade (opt-in)',
  [TEST_EVENT_TYPE]: 'Entrega de teste (POST /v1/webhooks/test)',
};

/** The whole event as delivered: `{ id, type, timestamp, data }`. */
function envelope(type: string): JsonSchema {
  return closed(['id', 'type', 'timestamp', 'data'], {
    id: { type: 'string', format: 'uuid', description: 'Id do evento: o mesmo em cada nova tentativa (deduplique por ele).' },
    type: { type: 'string', const: type },
    timestamp: { type: 'string', format: 'date-time' },
    data: WEBHOOK_DATA[type]!,
  });
}

/** The signature header is the `webhookSignature` security scheme; these two say what arrived. */
const HEADERS = [
  { name: 'X-Webhook-Event', in: 'header', required: true, description: 'O `type` do evento.', schema: { type: 'string' } },
  { name: 'X-Webhook-Delivery', in: 'header', required: true, description: 'Id desta tentativa de entrega.', schema: { type: 'string' } },
];

/** The OpenAPI `webhooks` object: a POST to the partner's URL per event type. */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(Object.keys(WEBHOOK_DATA).map((type) => [type, {
    post: {
      operationId: `webhook.${type}`,
      summary: SUMMARY[type],
      tags: ['webhooks'],
      security: [{ webhookSignature: [] }],
      parameters: HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: envelope(type) } } },
      responses: {
        '2XX': { description: 'Entrega confirmada. Qualquer outro status, ou nenhuma resposta no tempo limite (WEBHOOK_TIMEOUT_MS, 10 s), agenda nova tentativa (5 min, 30 min, 2 h, 24 h) e depois a DLQ.' },
      },
    },
  }]));
}
