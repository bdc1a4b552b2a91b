import { CONTINGENCY_REASONS } from '../../lib/emission/contingency.js';

/**
 * OpenAPI of the NFC-e offline contingency (lib/emission/contingency.ts): the response fields a
 * contingency note adds, and the behaviour and event payloads the spec leaves "not shown".
 */
export const contingencyResponseProperties = {
  qrCode: { type: 'string', description: 'NFC-e em contingência: texto do QR Code offline (manual v2) do DANFE-NFC-e.' },
  contingencia: {
    type: 'object',
    description: 'Só em nota emitida em contingência offline (tpEmis 9).',
    properties: {
      motivo: { type: 'string', enum: [...CONTINGENCY_REASONS], description: 'solicitada (contingencia: true), autorizadora-indisponivel (monitor confirmou a UF fora do ar), falha-na-transmissao (falha de infraestrutura e a chave normal não consta na autoridade).' },
      justificativa: { type: 'string', description: 'xJust impresso: justificativaContingencia ou o texto padrão.' },
      prazo: { type: 'string', format: 'date-time', description: 'Entrada em contingência + 24 h: prazo de transmissão.' },
    },
    required: ['motivo', 'justificativa', 'prazo'],
  },
} as const;

export const contingencyDescription = 'Contingência offline (NFC-e, tpEmis 9), salvo contingencia: false: com contingencia: true, ou com a UF do emissor confirmada fora do ar pelo monitor, '
  + 'a nota é assinada em contingência e não é transmitida agora: 201 com status CONTINGENCIA_PENDENTE, protocol null, accessKey, qrCode e contingencia { motivo, justificativa, prazo }, e o evento invoice.contingency. '
  + 'Falha de infraestrutura na transmissão normal: a chave é consultada; já autorizada → 201 AUTHORIZED com o protocolo real; não consta e nada chegou à autoridade → o mesmo número recebe nova chave tpEmis 9 (CONTINGENCIA_PENDENTE); '
  + 'não consta mas o envio pode ter chegado (resposta perdida após o envio) → 503 CONTINGENCIA_SITUACAO_INDETERMINADA e nenhuma chave nova por enquanto: a autoridade ainda pode registrar a primeira; '
  + 'uma consulta após a janela de processamento (2 min) decide: autorizada → invoice.authorized com a primeira chave; ainda ausente → nova chave tpEmis 9 e invoice.contingency (com qrCode). '
  + 'Sem resposta da consulta → 503 CONTINGENCIA_SITUACAO_INDETERMINADA (details.invoiceId, details.status, details.accessKey) e o resultado chega por webhook. '
  + 'Se a autoridade responder 539 citando uma chave que a nota já teve, essa chave é consultada e a nota termina AUTHORIZED com ela (protocolo e nfeProc dela), nunca REJECTED. '
  + 'A nota pendente é transmitida automaticamente (mesma chave) quando a autorizadora volta: invoice.authorized ou invoice.rejected com emitidaEmContingencia: true; '
  + 'após 24 h sem autorização, invoice.contingency.expired (uma vez, estado inalterado). '
  + 'data de invoice.contingency e invoice.contingency.expired: { invoiceId, model, number, series, accessKey, status, amount, qrCode, contingencia { motivo, justificativa, prazo } }. '
  + 'Reenvio do numero de uma nota em contingência: 409 RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL (nunca uma chave nova; contingencia: true num reenvio não gera recibo de contingência).';
