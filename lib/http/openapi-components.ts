/**
 * The reusable parts of the OpenAPI document (lib/http/openapi.ts): the error envelope of API.md,
 * Errors > Envelope, the rate-limit headers, the security schemes and the tag descriptions.
 */
export type JsonSchema = Record<string, unknown>;

export const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['type', 'title', 'status', 'detail', 'instance', 'requestId', 'timestamp'],
      properties: {
        type: { type: 'string', format: 'uri', description: '{errors_base}/<CÓDIGO>: a página que explica o código, a causa e a correção.' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
        erros: { type: 'array', items: { type: 'object', properties: { codigo: { type: 'string' }, descricao: { type: 'string' } } } },
        details: {
          type: 'object',
          description: 'VALIDATION_ERROR: errors[] e camposDesconhecidos[] trazem no máximo 50 itens; além disso, totalErros e totalCamposDesconhecidos dão as contagens completas. '
            + 'BAD_REQUEST de corpo fora dos limites: profundidadeMaxima (32 níveis), chavesMaximasPorObjeto (500, com objeto) ou valoresMaximos (1 000 000).',
        },
        instance: { type: 'string' },
        requestId: { type: 'string' },
        timestamp: { type: 'string', format: 'date-time' },
      },
    },
  },
};

export const RATE_HEADERS = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requisições por segundo da janela que se aplica: a do parceiro (plano) quando a credencial foi reconhecida; senão a janela por IP das rotas públicas.' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Restantes nesta janela de 1 s.' },
  'X-RateLimit-Reset': { schema: { type: 'integer' }, description: 'Unix timestamp do fim da janela.' },
  'X-Request-Id': { schema: { type: 'string' }, description: 'Igual a meta.requestId / error.requestId.' },
};

/** Any route, when the database or another dependency is down (issue 20): SERVICE_UNAVAILABLE, never a 500. */
export const UNAVAILABLE = {
  description: 'SERVICE_UNAVAILABLE: banco de dados ou outro serviço indisponível; repita após Retry-After (com a mesma Idempotency-Key, sem risco de duplicar). '
    + 'Numa emissão já numerada, details.invoiceId e details.status.',
  headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Segundos até tentar de novo.' } },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
};

export const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'ek_live_… (produção) ou ek_test_… (homologação/sandbox)' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
  mfaToken: { type: 'http', scheme: 'bearer', description: 'mfa_token do login, só em /v1/auth/2fa/*' },
  /** How a partner's endpoint authenticates our webhook deliveries (the `webhooks` section). */
  webhookSignature: { type: 'apiKey', in: 'header', name: 'X-Webhook-Signature', description: '`sha256=` + HMAC-SHA256 (hex) do corpo bruto com o webhookSecret; o receptor recalcula e compara em tempo constante.' },
};

/** What each tag groups, in the order a newcomer meets them (README walk-through). */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'autenticação': 'Cadastro, login com 2FA, sessões, chaves de API (ek_live_/ek_test_) e senhas.',
  emissores: 'Emissores (CNPJ) do parceiro: cadastro, certificado A1, CSC da NFC-e, ambiente e transferência de CNPJ.',
  documentos: 'Emissão e consulta de NF-e (55), NFC-e (65) e NFS-e (padrão nacional), lotes, XML e DANFE.',
  eventos: 'Eventos após a autorização: cancelamento e carta de correção, com o XML registrado.',
  inutilizacao: 'Inutilização de faixas de numeração de NF-e e NFC-e junto à autoridade.',
  'tributação assistida': 'Classificação IBS/CBS (cClassTrib) por produto e pendências de classificação.',
  'tributos aproximados': 'Tabelas de valor aproximado dos tributos (Lei 12.741/2012) por UF.',
  consultas: 'Consultas cadastrais de CNPJ e CPF.',
  sefaz: 'Situação das autorizadoras por UF e contingência.',
  webhooks: 'Configuração, segredo, teste e fila de mensagens mortas das notificações de eventos.',
  'administração': 'Operações do provedor (SUPERADMIN): solicitações de acesso, parceiros, ambiente dos emissores, transferências de CNPJ e tabelas.',
  monitoramento: 'Saúde, versão e este documento; sem autenticação.',
};

/** The document's `tags`: every tag an operation uses, described, in a stable order. */
export function tagsOf(paths: Record<string, Record<string, unknown>>): { name: string; description: string }[] {
  const used = new Set<string>();
  for (const ops of Object.values(paths)) for (const op of Object.values(ops)) for (const t of (op as { tags?: string[] }).tags ?? []) used.add(t);
  const known = Object.keys(TAG_DESCRIPTIONS);
  const order = (t: string) => (known.includes(t) ? known.indexOf(t) : known.length);
  return [...used].sort((a, b) => order(a) - order(b) || a.localeCompare(b)).map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operações de ${name}.` }));
}
