import { ruleToJsonSchema } from '../../lib/http/openapi.js';
import { issuerFieldRules } from '../../lib/issuer/schema.js';
import { pageDoc } from '../../lib/pagination/page.js';

/** Response shapes of the issuer routes for the OpenAPI document (request shapes come from params). */
const nullable = (s: Record<string, unknown>) => ({ anyOf: [s, { type: 'null' }] });

export const certificateSummaryDoc = {
  type: 'object',
  description: 'Resumo do certificado A1 instalado; o PFX e a senha nunca são devolvidos.',
  properties: {
    subject: { type: 'string' },
    serial: { type: 'string', description: 'Número de série, hexadecimal' },
    notBefore: { type: 'string', format: 'date-time' },
    notAfter: { type: 'string', format: 'date-time' },
    cnpj: { type: 'string', description: 'CNPJ do OID ICP-Brasil 2.16.76.1.3.3 ou do sufixo do CN' },
  },
};

/**
 * A field as an answer shows it: the request's schema, null when not registered. The address is
 * answered whole, every field it did not receive as null, so its fields are each nullable too (the
 * request's closed address schema refuses an empty string, and an answer's null).
 */
function answered(name: string, rule: unknown): Record<string, unknown> {
  const schema = ruleToJsonSchema(rule).schema as { type?: string; properties?: Record<string, Record<string, unknown>> };
  if (name === 'cnpj' || name === 'razaoSocial') return schema;
  if (schema.type === 'object' && schema.properties) {
    return nullable({ ...schema, properties: Object.fromEntries(Object.entries(schema.properties).map(([k, p]) => [k, nullable(p)])) });
  }
  return nullable(schema);
}

export const issuerResponseDoc = {
  type: 'object',
  properties: {
    issuerId: { type: 'string', format: 'uuid' },
    ...Object.fromEntries(Object.entries(issuerFieldRules).map(([k, r]) => [k, answered(k, r)])),
    ambienteFiscal: { enum: [1, 2], description: '1 produção, 2 homologação (inicial)' },
    sandbox: { type: 'boolean' },
    certificado: nullable(certificateSummaryDoc),
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

export const certificateDoc = {
  summary: 'Instala (ou substitui) o certificado A1 do emissor',
  tags: ['emissores'],
  description: 'Corpo JSON { pfxBase64, password }: o arquivo PKCS#12 (.pfx/.p12) em base64, até 64 KB. 201 na primeira instalação, 200 na substituição. '
    + 'Recusas 422: CERTIFICADO_INVALIDO (não é PKCS#12; chave RSA acima de 4096 bits, com details.bitsChave e details.bitsMaximos; sujeito com caractere nulo), CERTIFICADO_SENHA_INVALIDA, CERTIFICADO_EXPIRADO, CERTIFICADO_AINDA_NAO_VALIDO, '
    + 'CERTIFICADO_CNPJ_DIVERGENTE (CNPJ completo de 14 caracteres do certificado — OID 2.16.76.1.3.3 ou sufixo ":CNPJ" do CN — diferente do emissor). '
    + 'Guardado cifrado (AES-256-GCM); nunca devolvido. '
    + 'Chave ek_test_ para emissor em produção (ambienteFiscal 1) não sandbox: 403 CHAVE_TESTE_EMISSOR_PRODUCAO.',
  response: { type: 'object', properties: { issuerId: { type: 'string', format: 'uuid' }, certificado: certificateSummaryDoc } },
  alsoAnswers: { 201: 'Primeira instalação do certificado.' },
  errors: {
    409: 'CONFLICT: o emissor mudou (CNPJ) durante o envio do certificado; envie novamente.',
    503: 'SERVICE_UNAVAILABLE: a conta já tem 16 certificados aguardando verificação (os envios de cada conta têm a sua vez); envie de novo em instantes.',
  },
};

const transferView = {
  type: 'object',
  properties: {
    transferRequestId: { type: 'string', format: 'uuid' },
    cnpj: { type: 'string' },
    status: { enum: ['PENDENTE', 'APROVADA', 'RECUSADA'] },
    motivo: { type: 'string' },
    contato: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    decidedAt: { type: ['string', 'null'], format: 'date-time' },
  },
};
const adminTransferView = {
  ...transferView,
  properties: { ...transferView.properties, issuerId: { type: 'string' }, requesterPartnerId: { type: 'string' }, holderPartnerId: { type: 'string' }, decisaoMotivo: { type: ['string', 'null'] } },
};

export const transferDoc = {
  request: {
    summary: 'Solicita a transferência de um CNPJ cadastrado em outra conta',
    tags: ['emissores'],
    description: '202 com a solicitação PENDENTE (repetir devolve a mesma). 404 se o CNPJ não está cadastrado; 409 CONFLICT se já é da sua conta. Um SUPERADMIN aprova em POST /v1/admin/transfer-requests/{id}/approve.',
    response: transferView,
  },
  list: { summary: 'Lista solicitações de transferência (SUPERADMIN)', description: 'Mais antigas primeiro; paginação por cursor (nextCursor → cursor).', tags: ['administração'], response: pageDoc(adminTransferView) },
  approve: { summary: 'Aprova: o emissor passa à conta solicitante, sem certificado nem CSC (SUPERADMIN)', tags: ['administração'], response: adminTransferView },
  reject: { summary: 'Recusa uma solicitação de transferência (SUPERADMIN)', tags: ['administração'], response: adminTransferView },
};
