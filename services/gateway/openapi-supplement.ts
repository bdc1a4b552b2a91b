/**
 * What the OpenAPI document needs beyond the schemas that run (issue 21, item 4): a realistic
 * request example for every write operation (the README's walk-through bodies) and the type of
 * `data` where the action declares none. Keyed by action name; an action's own `openapi`
 * (requestExample, response) wins, so a service can take its entry over at any time.
 * test/e2e/openapi-contract.test.ts checks each example against the request schema it documents.
 */
import type { JsonSchema } from '../../lib/http/openapi.js';
import { pageDoc } from '../../lib/pagination/page.js';

const JUSTIFICATIVA = { justificativa: 'Pedido cancelado pelo cliente antes do envio' };
const ISSUER_ID = '0b1f6f2e-5a39-4c8e-9d52-3b9f0f7a1c11';

export const REQUEST_EXAMPLES: Readonly<Record<string, unknown>> = {
  'v1.auth.register': { name: 'Ana Souza', email: 'ana@softwarehouse.com.br', company: 'Software House Ltda', whatsapp: '(11) 99999-0000', emits: ['NFE', 'NFCE'], volumePerMonth: 5000, erpStack: 'Node.js' },
  'v1.auth.login': { email: 'dev@example.com', password: 'Senha-forte-123' },
  'v1.auth.refresh': { refreshToken: 'rt_4f1c2b…' },
  'v1.auth.logout': {},
  'v1.auth.setup2fa': {},
  'v1.auth.enable2fa': { totpCode: '123456' },
  'v1.auth.verify2fa': { mfaToken: 'eyJhbGciOiJIUzI1NiJ9…', totpCode: '123456' },
  'v1.auth.disable2fa': { password: 'Senha-forte-123', totpCode: '123456' },
  'v1.auth.changePassword': { currentPassword: 'Senha-forte-123', newPassword: 'Outra-senha-456' },
  'v1.auth.forgotPassword': { email: 'dev@example.com' },
  'v1.auth.resetPassword': { token: 'rst_9a8b7c…', newPassword: 'Outra-senha-456' },
  'v1.auth.acceptInvite': { token: 'inv_5d6e7f…', name: 'Ana Souza', password: 'Senha-forte-123' },
  'v1.auth.registerPartner': { name: 'Software House Ltda', ownerEmail: 'ana@softwarehouse.com.br', ownerName: 'Ana Souza', plan: 'STARTER' },
  'v1.auth.ownerInvite': { email: 'ana@softwarehouse.com.br', name: 'Ana Souza' },
  'v1.auth.approveAccessRequest': {},
  'v1.auth.deactivatePartnerRoute': {},
  'v1.auth.regenerateTestKey': {},
  'v1.auth.regenerateLiveKey': {},
  'v1.issuer.create': {
    cnpj: '11222333000181', razaoSocial: 'Loja Exemplo Ltda', nomeFantasia: 'Loja Exemplo', ie: '110042490114', crt: 3, csc: 'CSC0TESTE0SANDBOX0001', cscId: '000001',
    endereco: { logradouro: 'Avenida Paulista', numero: '1000', bairro: 'Bela Vista', codigoMunicipio: '3550308', uf: 'SP', cep: '01310100', telefone: '1130000000' },
  },
  'v1.issuer.update': { fiscalBrainEnabled: true },
  'v1.issuer.uploadCertificate': { pfxBase64: 'MIIKcQIBAzCCCjcGCSqGSIb3DQEHAaCCCigEggokMIIKIDCCBNcGCSqGSIb3DQEHBqCCBMgwggTE', password: 'senha-do-a1' },
  'v1.issuer.requestTransfer': { cnpj: '11222333000181', motivo: 'CNPJ cadastrado por outro parceiro que não atende mais o cliente', contato: 'ana@softwarehouse.com.br' },
  'v1.issuer.setEnvironment': { ambienteFiscal: 1 },
  'v1.issuer.approveTransferRequest': {},
  'v1.issuer.rejectTransferRequest': { motivo: 'Documentação do cliente não confere' },
  'v1.classification.confirmClass': { issuerId: ISSUER_ID, codigo: 'ARROZ-5KG', cClassTrib: '200003', ncm: '10063021' },
  'v1.classification.loadClassTables': { versao: '2026.1', cclasstrib: 'Y0NsYXNzVHJpYjsuLi4K', cst: 'Q1NUOy4uLgo=', anexos: 'QW5leG87Li4uCg==', aliquotas: 'VUY7Li4uCg==', aliquotasCbs: 'QW5vLEFsw61xdW90YQoyMDI2LDAuMDA5Cg==' },
  'v1.classification.importApproximateTaxTable': { conteudo: 'Y29kaWdvO2V4O3RpcG87Li4uCg==', uf: 'SP', nomeArquivo: 'TabelaIBPTaxSP26.1.A.csv' },
  'v1.emission.cancelNfe': JUSTIFICATIVA,
  'v1.emission.cancelNfce': JUSTIFICATIVA,
  'v1.emission.correctNfe': { correcao: 'Endereco de entrega: Rua das Flores, 123' },
  'v1.emission.inutilizeNfe': { issuerId: ISSUER_ID, serie: 1, numeroInicial: 10, numeroFinal: 12, justificativa: 'Numeracao pulada por falha do sistema' },
  'v1.emission.inutilizeNfce': { issuerId: ISSUER_ID, serie: 1, numeroInicial: 10, numeroFinal: 12, justificativa: 'Numeracao pulada por falha do sistema' },
  'v1.emission.resendNfse': {},
  'v1.webhook-dispatcher.patchConfig': { webhookUrl: 'https://example.com/hooks/fiscal', events: ['invoice.authorized', 'invoice.rejected'] },
  'v1.webhook-dispatcher.regenerateSecret': {},
  'v1.webhook-dispatcher.sendTest': {},
  'v1.webhook-dispatcher.retryDead': {},
  'v1.webhook-dispatcher.retryAllDead': {},
};

const str = { type: 'string' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const nullable = (s: JsonSchema): JsonSchema => ({ anyOf: [s, { type: 'null' }] });
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const invite = { type: 'object', properties: { email: str, expiresAt: dateTime } };
const partnerProvisioned = {
  type: 'object',
  properties: { partnerId: uuid, name: str, plan: str, subscriptionStatus: { type: 'string', enum: ['ACTIVE', 'INACTIVE'] }, invite },
};
const batchItem = {
  type: 'object',
  properties: {
    id: uuid, index: { type: 'integer', minimum: 0 }, status: { type: 'string', enum: ['QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED'] },
    invoiceId: nullable(uuid),
    resultData: { description: 'COMPLETED: o documento (como em GET /v1/nfe/{id}); FAILED: o envelope de erro em resultData.error.', anyOf: [{ type: 'object' }, { type: 'null' }] },
    updatedAt: dateTime, links: { type: 'object', properties: { self: str } },
  },
};

/** Shared schemas the supplement refers to, added to components.schemas. */
export const SUPPLEMENT_COMPONENTS: Readonly<Record<string, JsonSchema>> = {
  ListaDocumentos: pageDoc(ref('Documento')) as JsonSchema,
  Lote: {
    type: 'object',
    properties: {
      id: uuid, status: { type: 'string', enum: ['EM_PROCESSAMENTO', 'CONCLUIDO'] }, total: { type: 'integer', minimum: 1, maximum: 500 },
      contagem: { type: 'object', properties: { QUEUED: { type: 'integer' }, PROCESSING: { type: 'integer' }, COMPLETED: { type: 'integer' }, FAILED: { type: 'integer' } } },
      createdAt: dateTime, items: { type: 'array', items: ref('ItemLote') },
    },
  },
  ItemLote: batchItem,
};

/** The type of `data` in the success envelope, by action. */
export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  'v1.emission.listNfe': ref('ListaDocumentos'),
  'v1.emission.listNfce': ref('ListaDocumentos'),
  'v1.emission.getNfe': ref('Documento'),
  'v1.emission.getNfce': ref('Documento'),
  'v1.emission.emitNfeBatch': ref('Lote'),
  'v1.emission.getNfeBatch': ref('Lote'),
  'v1.emission.getNfeBatchItem': ref('ItemLote'),
  'v1.auth.me': {
    type: 'object',
    properties: {
      // What services/shared/caller.ts resolves: a session (jwt) or an API key (key: no user, no role).
      scheme: { type: 'string', enum: ['jwt', 'key'] }, partnerId: nullable(uuid), userId: nullable(uuid),
      role: nullable({ type: 'string', enum: ['SUPERADMIN', 'ADMIN', 'CONTADOR'] }), isOwner: { type: 'boolean' },
      keyKind: nullable({ type: 'string', enum: ['live', 'test'] }), plan: str, rateLimit: { type: 'integer', description: 'Requisições por segundo do parceiro.' },
      subscriptionActive: { type: 'boolean' }, sessionId: { type: 'string', description: 'Só numa sessão (jwt).' },
      user: nullable({ type: 'object', properties: { id: uuid, email: str, name: str, role: str, twoFactorEnabled: { type: 'boolean' } } }),
      partner: nullable({
        type: 'object',
        properties: {
          id: uuid, name: str, plan: str, subscriptionStatus: str, enterpriseRateLimit: nullable({ type: 'integer' }), active: { type: 'boolean' },
          hasEmitted: { type: 'boolean' }, createdAt: dateTime,
        },
      }),
      apiKeys: { type: 'array', items: { type: 'object', properties: { keyId: str, kind: { type: 'string', enum: ['live', 'test'] }, masked: str, createdAt: dateTime } } },
    },
  },
  'v1.auth.disable2fa': { type: 'object', properties: { enabled: { const: false } } },
  'v1.auth.acceptInvite': {
    type: 'object',
    properties: {
      user: { type: 'object', properties: { id: uuid, email: str, name: str, partnerId: uuid, role: str } },
      partnerId: uuid, mfa_enrollment_required: { const: true }, testApiKey: { type: 'string', description: 'ek_test_…, mostrada uma vez.' },
    },
  },
  'v1.auth.registerPartner': partnerProvisioned,
  'v1.auth.approveAccessRequest': { ...partnerProvisioned, properties: { accessRequestId: uuid, ...partnerProvisioned.properties } },
  'v1.auth.ownerInvite': { type: 'object', properties: { partnerId: uuid, invite } },
  'v1.auth.deactivatePartnerRoute': { type: 'object', properties: { partnerId: uuid, active: { const: false }, revokedKeys: { type: 'integer' }, endedSessions: { type: 'integer' } } },
  'v1.auth.listAccessRequests': {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: uuid, name: str, email: str, company: str, whatsapp: str, emits: { type: 'array', items: { type: 'string', enum: ['NFE', 'NFCE', 'NFSE'] } },
            volumePerMonth: nullable({ type: 'integer' }), erpStack: nullable(str), status: { type: 'string', enum: ['PENDING', 'APPROVED'] }, partnerId: nullable(uuid),
            createdAt: dateTime, decidedAt: nullable(dateTime),
          },
        },
      },
      limit: { type: 'integer' }, offset: { type: 'integer' },
    },
  },
  'v1.issuer.queryCnpj': {
    type: 'object',
    properties: {
      cnpj: str, razaoSocial: str, nomeFantasia: nullable(str), situacao: str, uf: nullable(str), municipio: nullable(str),
      codigoMunicipio: nullable(str), cnae: nullable(str), abertura: nullable(str),
    },
  },
  'v1.issuer.queryCpf': { type: 'object', properties: { cpf: str, nome: str, situacao: str } },
};
