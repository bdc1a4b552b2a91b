import { NFSE_STATUSES } from '../../../lib/emission/nfse/state.js';
import { pageDoc } from '../../../lib/pagination/page.js';

/** Response shapes and examples of the NFS-e routes for the OpenAPI document. */
const erro = { type: 'object', properties: { codigo: { type: 'string' }, descricao: { type: 'string' } } };
const aviso = { type: 'object', properties: { codigo: { type: 'string' }, campo: { type: 'string' }, mensagem: { type: 'string' }, competencia: { type: 'string' } } };

export const nfseLinksDoc = {
  type: 'object',
  properties: {
    self: { type: 'string' }, xml: { type: 'string', description: 'XML da NFS-e (ou a DPS assinada de uma rejeição).' },
    cancelamento: { type: 'string' }, danfse: { type: 'string', description: 'DANFSe em PDF.' }, danfseHtml: { type: 'string', description: 'DANFSe em HTML.' },
  },
};

export const nfseResponseDoc = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: [...NFSE_STATUSES] },
    model: { type: 'string', enum: ['NFSe'] },
    chaveAcesso: { type: ['string', 'null'], pattern: '^\\d{50}$', description: 'Chave de acesso da NFS-e (50 dígitos), atribuída pela Sefin Nacional.' },
    numero: { type: ['string', 'null'], description: 'nNFSe, atribuído pela Sefin.' },
    serie: { type: 'integer' },
    nDPS: { type: 'integer', description: 'Número da DPS, alocado pelo serviço por emissor e série.' },
    idDps: { type: 'string', description: 'Id da DPS (45 caracteres): consulta de reconciliação.' },
    amount: { type: 'string', description: 'valorServicos, decimal string' },
    issuerId: { type: 'string', format: 'uuid' },
    createdAt: { type: 'string', format: 'date-time' },
    avisos: { type: 'array', items: aviso, description: 'Regra 8: pTotTribSN do cadastro com competência ausente, anterior ou futura.' },
    alertas: { type: 'array', items: erro, description: 'alertas[] da Sefin, verbatim.' },
    links: nfseLinksDoc,
  },
};

export const nfseDetailDoc = {
  type: 'object',
  properties: {
    ...nfseResponseDoc.properties,
    ambiente: { enum: [1, 2] },
    situacao: { type: ['string', 'null'], enum: ['indeterminada', null] },
    authorizedAt: { type: ['string', 'null'], format: 'date-time' },
    canceladaEm: { type: ['string', 'null'], format: 'date-time' },
    erros: { type: ['array', 'null'], items: erro },
    motivo: { type: ['string', 'null'] },
    proximaVerificacaoEm: { type: ['string', 'null'], format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

export const nfseListDoc = pageDoc(nfseDetailDoc);

export const NFSE_REQUEST_EXAMPLE = {
  issuerId: '8cfea046-5d1c-4c1e-9d0c-0b1f2a3c4d5e',
  dpsNacional: { opSimpNac: 3, regApTribSN: 1, cTribNac: '010101', tribISSQN: 1, pTotTribSN: 6 },
  competencia: '2026-11-22',
  tomador: {
    cnpjCpf: '39847728000199', razaoSocial: 'CLIENTE DE SERVICOS LTDA', email: 'financeiro@cliente.com.br',
    endereco: { logradouro: 'AV RIO BRANCO', numero: '123', bairro: 'CENTRO', codigoMunicipio: '3303302', cep: '24020077' },
  },
  servico: { valorServicos: 1500, discriminacao: 'Desenvolvimento de sistemas sob encomenda', codigoNBS: '115021000', aliquotaIss: 2 },
};

export const NFSE_RESPONSE_EXAMPLE = {
  id: '5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a', status: 'AUTHORIZED', model: 'NFSe',
  chaveAcesso: '35503082211222333000181000000000000126110000000001', numero: '1', serie: 1, nDPS: 1,
  idDps: 'DPS355030821122233300018100001000000000000001', amount: '1500.00', issuerId: '8cfea046-5d1c-4c1e-9d0c-0b1f2a3c4d5e',
  createdAt: '2026-11-22T20:40:00.000Z', avisos: [], alertas: [],
  links: {
    self: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a', xml: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/xml',
    cancelamento: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/cancelamento',
    danfse: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/danfse.pdf', danfseHtml: '/v1/nfse/5b0e1f0c-9a51-4c55-a7e4-1f3e1d1e2b7a/danfse.html',
  },
};

export const NFSE_EMIT_DESCRIPTION = 'Ordem: campos desconhecidos ou issuerId que não é UUID (400 VALIDATION_ERROR, com qualquer emissor ou sem issuerId) → emissor (issuerId obrigatório: 400 sem ele, 404 de outro parceiro, 403 ek_test_ com emissor em produção) → demais regras da validação estrita (400) '
  + '→ regras 2-10 da NFS-e (422) → preflight (422 CERTIFICADO_AUSENTE, CADASTRO_EMISSOR_INCOMPLETO com camposFaltando[], incluindo inscricaoMunicipal) '
  + '→ adesão do município emissor (422 MUNICIPIO_NAO_ADERENTE_PADRAO_NACIONAL quando já confirmado nao_aderente) → DPS 1.01 montada e validada no XSD '
  + '→ vez na numeração do emissor (rajadas de um mesmo emissor esperam, sem afetar outros emissores; só em sobrecarga real: 503 EMISSOR_SOBRECARREGADO '
  + 'com details.issuerId, antes da numeração: repita depois) → nDPS por emissor e série (sem lacunas) → DPS assinada → CREATED → TRANSMITTING → Sefin Nacional. '
  + 'Nenhuma recusa antes da Sefin consome nDPS. '
  + '201 com status AUTHORIZED, chaveAcesso (50 dígitos), numero (nNFSe), nDPS e avisos[] (regra 8); TRANSMITTING/ERROR quando a Sefin não respondeu '
  + '(consulte GET /v1/nfse/{id}: a reconciliação consulta pelo idDps e reenvia a mesma DPS se a Sefin não a conhece; o resultado chega por webhook). '
  + 'Rejeição: 400 BAD_REQUEST com erros[] verbatim da Sefin e details.nfseId (DPS assinada em /{id}/xml); E0037 também traz details.mensagemSefin '
  + 'e marca o município como nao_aderente, e a próxima emissão é recusada com 422 antes da numeração.';

export const NFSE_IDEMPOTENCY_DESCRIPTION = 'Vinculada à DPS na numeração (única por parceiro): toda repetição — após 5xx, queda de um nó ou timeout — '
  + 'responde a mesma DPS no estado atual (nunca um novo nDPS) e, se a primeira tentativa morreu sem resposta, continua a mesma DPS '
  + '(consulta pelo idDps antes de qualquer reenvio). Outro corpo com a mesma chave: 422 IDEMPOTENCIA_CORPO_DIVERGENTE. '
  + 'Um 5xx depois da numeração traz details.nfseId e details.status. '
  + 'Passadas as 24 horas da chave, a repetição é validada como requisição nova antes de tudo; se válida, responde a DPS vinculada.';
