import type { ActionSchema, Context } from 'moleculer';
import type { CallerMeta } from '../shared/caller.js';
import type { EmissionSelf } from './service-this.js';
import { DomainError } from '../../lib/errors/index.js';
import type { Model } from '../../lib/nfe/types.js';
import { FISCAL_EVENT_STATUSES, FISCAL_EVENT_TYPES, MAX_CCE_SEQUENCE } from '../../lib/emission/fiscal-events.js';
import { INUTILIZACAO_STATUSES, MAX_RANGE } from '../../lib/emission/inutilizacao.js';
import { CORRECAO_MAX, CORRECAO_MIN, fiscalTextRule, JUSTIFICATIVA_MAX, JUSTIFICATIVA_MIN } from '../../lib/emission/fiscal-text.js';
import { DOCUMENT_STATUSES } from '../../lib/emission/state.js';
import { cancelDocument, correctDocument, eventXml, listEvents } from './fiscal-events.js';
import { eventDacce } from './dacce.js';
import { inutilizacaoParams, inutilizacaoXml, inutilize, listInutilizacaoParams, listInutilizacoes, type InutilizacaoBody } from './inutilizacao.js';
import { readerOf } from './reader.js';

/**
 * REST actions of the events after authorization and of the inutilização (README, "Cancellation,
 * correction letter and inutilização"). Handlers delegate to services/emission/fiscal-events.ts
 * and inutilizacao.ts; `this` is the emission service (eventDeps()).
 */
type Ctx<P = Record<string, unknown>> = Context<P, CallerMeta & { $responseType?: string; $responseHeaders?: Record<string, string>; $statusCode?: number }>;

function partnerOf(ctx: Ctx<any>): { partnerId: string; keyKind: 'live' | 'test' | null } {
  const caller = ctx.meta.caller;
  if (!caller?.partnerId) throw new DomainError('FORBIDDEN', undefined, 'Credencial sem parceiro: eventos e inutilização exigem um parceiro.');
  return { partnerId: caller.partnerId, keyKind: caller.keyKind };
}

const label = (model: Model) => (model === '55' ? 'NF-e' : 'NFC-e');

const eventProperties = {
  id: { type: 'string', format: 'uuid' },
  tipo: { type: 'string', enum: [...FISCAL_EVENT_TYPES] },
  sequencia: { type: 'integer', minimum: 1, maximum: MAX_CCE_SEQUENCE, description: 'nSeqEvento' },
  status: { type: 'string', enum: [...FISCAL_EVENT_STATUSES] },
  justificativa: { type: 'string', description: 'Só em cancelamento.' },
  correcao: { type: 'string', description: 'Só em carta-correcao.' },
  protocolo: { type: ['string', 'null'], description: 'nProt do registro do evento.' },
  cStat: { type: ['integer', 'null'] },
  xMotivo: { type: ['string', 'null'] },
  registradoEm: { type: ['string', 'null'], format: 'date-time' },
  createdAt: { type: 'string', format: 'date-time' },
  links: { type: 'object', properties: { xml: { type: ['string', 'null'] } } },
};
const eventResponse = { type: 'object', properties: eventProperties };

const cancelDescription = 'Cancela um documento AUTHORIZED (evento 110111 assinado com o A1 do emissor). '
  + 'Ordem: documento (404) → corpo (400 VALIDATION_ERROR: justificativa de 15 a 255 caracteres imprimíveis, nunca truncada) → estado (422 DOCUMENTO_NAO_CANCELAVEL com details.status) '
  + '→ emissor (403 ek_test_ com emissor em produção; 422 CERTIFICADO_AUSENTE) → um evento por vez (409 EVENTO_EM_TRANSMISSAO; 409 EVENTO_PENDENTE se outro evento ficou sem resposta) → autoridade. '
  + 'Registrado (cStat 135/136/155): 200, documento CANCELADA, webhook invoice.canceled (invoiceId, model, number, series, accessKey, status, amount, protocolo, justificativa, canceladaEm). '
  + 'Rejeitado (ex.: 501 fora do prazo): 422 EVENTO_REJEITADO com details.cStat e details.xMotivo verbatim. '
  + 'Sem resposta: 503 AUTORIDADE_INDISPONIVEL (details.situacao nao_enviado | indeterminada); repetir a mesma requisição conclui o mesmo evento (consulta a chave antes de reenviar). '
  + 'Repetir o cancelamento de um documento CANCELADA devolve 200 com o cancelamento registrado, sem novo evento.';

export function cancelAction(model: Model, path: string): ActionSchema {
  return {
    rest: `POST /${path}/:id/cancelamento`,
    params: { $$strict: true, id: 'string', justificativa: fiscalTextRule(JUSTIFICATIVA_MIN, JUSTIFICATIVA_MAX, 'xJust: 15 a 255 caracteres imprimíveis.') },
    openapi: {
      summary: `Cancela ${label(model)} autorizada`, description: cancelDescription, tags: ['eventos'], errors: { 409: 'EVENTO_PENDENTE (evento anterior sem resposta da autoridade: repita a mesma requisição) ou EVENTO_EM_TRANSMISSAO.' },
      response: { type: 'object', properties: { ...eventProperties, documento: { type: 'object', properties: { id: { type: 'string' }, status: { type: 'string', enum: [...DOCUMENT_STATUSES] }, accessKey: { type: ['string', 'null'] }, model: { type: 'string' }, number: { type: 'integer' }, series: { type: 'integer' } } } } },
    },
    async handler(this: EmissionSelf, ctx: Ctx<{ id: string; justificativa: string }>) {
      const { partnerId, keyKind } = partnerOf(ctx);
      return cancelDocument(this.eventDeps(ctx), { partnerId, keyKind, model, id: ctx.params.id, justificativa: ctx.params.justificativa });
    },
  };
}

export const correctionAction = {
  rest: 'POST /nfe/:id/carta-correcao',
  httpStatus: 201,
  params: { $$strict: true, id: 'string', correcao: fiscalTextRule(CORRECAO_MIN, CORRECAO_MAX, 'xCorrecao: 15 a 1000 caracteres imprimíveis.') },
  openapi: {
    summary: 'Carta de correção (CC-e, evento 110110) de NF-e autorizada',
    description: `Só NF-e (NFC-e não tem CC-e: a rota não existe). sequencia (nSeqEvento) cresce por NF-e de 1 a ${MAX_CCE_SEQUENCE}; a ${MAX_CCE_SEQUENCE + 1}ª é 422 LIMITE_CARTAS_CORRECAO. `
      + 'Cada carta substitui as anteriores (a autoridade considera a última). NF-e fora de AUTHORIZED: 422 CARTA_CORRECAO_NAO_PERMITIDA. '
      + 'Rejeição: 422 EVENTO_REJEITADO; sem resposta: 503 AUTORIDADE_INDISPONIVEL e a mesma requisição conclui a mesma carta; outra carta antes disso: 409 EVENTO_PENDENTE.',
    tags: ['eventos'], response: eventResponse, errors: { 409: 'EVENTO_PENDENTE (evento anterior sem resposta da autoridade: repita a mesma requisição) ou EVENTO_EM_TRANSMISSAO.' },
  },
  async handler(this: EmissionSelf, ctx: Ctx<{ id: string; correcao: string }>) {
    const { partnerId, keyKind } = partnerOf(ctx);
    return correctDocument(this.eventDeps(ctx), { partnerId, keyKind, id: ctx.params.id, correcao: ctx.params.correcao });
  },
};

export function eventsAction(model: Model, path: string): ActionSchema {
  return {
    rest: `GET /${path}/:id/eventos`,
    params: { id: 'string' },
    openapi: { summary: `Eventos da ${label(model)} (cancelamento, carta-correcao), mais antigos primeiro`, tags: ['eventos'], response: { type: 'object', properties: { items: { type: 'array', items: eventResponse } } } },
    async handler(this: EmissionSelf, ctx: Ctx<{ id: string }>) {
      return listEvents(this.eventDeps(ctx), readerOf(ctx), model, ctx.params.id);
    },
  };
}

export function eventXmlAction(model: Model, path: string): ActionSchema {
  return {
    rest: `GET /${path}/:id/eventos/:eventId/xml`,
    params: { id: 'string', eventId: 'string' },
    raw: true,
    openapi: {
      summary: 'procEventoNFe de um evento registrado (409 antes do registro)', tags: ['eventos'], responseContentType: 'application/xml',
      errors: { 409: 'CONFLICT: evento ainda não registrado pela autoridade (details.status).' },
    },
    async handler(this: EmissionSelf, ctx: Ctx<{ id: string; eventId: string }>) {
      const { xml, filename } = await eventXml(this.eventDeps(ctx), readerOf(ctx), model, ctx.params.id, ctx.params.eventId);
      ctx.meta.$responseType = 'application/xml; charset=utf-8';
      ctx.meta.$responseHeaders = { 'Content-Disposition': `attachment; filename="${filename}"` };
      return xml;
    },
  };
}

/** GET /nfe/:id/eventos/:eventId/dacce.pdf|html (issue 22 item 5). The CC-e exists for the NF-e only. */
export function dacceAction(format: 'pdf' | 'html'): ActionSchema {
  return {
    rest: `GET /nfe/:id/eventos/:eventId/dacce.${format}`,
    params: { id: 'string', eventId: 'string' },
    raw: true,
    openapi: {
      summary: `DACCe (carta de correção impressa) em ${format === 'pdf' ? 'PDF' : 'HTML'}`, tags: ['eventos'], responseContentType: format === 'pdf' ? 'application/pdf' : 'text/html',
      description: 'Gerado do procEventoNFe registrado e da nfeProc da nota: chave com código de barras, sequência, protocolo de registro, texto da correção e condições de uso. '
        + 'Evento que não é carta de correção: 409 EVENTO_SEM_DACCE (details.tipo). Carta ainda não registrada: 409 CONFLICT (details.status). PDF como anexo (<chave>-110110-<seq>-dacce.pdf); HTML inline.',
      errors: { 409: 'EVENTO_SEM_DACCE: o evento não é carta de correção (details.tipo); CONFLICT: carta ainda não registrada (details.status).' },
    },
    async handler(this: EmissionSelf, ctx: Ctx<{ id: string; eventId: string }>) {
      const out = await eventDacce(this.eventDeps(ctx), readerOf(ctx), ctx.params.id, ctx.params.eventId, format);
      ctx.meta.$responseType = out.contentType;
      ctx.meta.$responseHeaders = { 'Content-Disposition': out.disposition };
      return out.body;
    },
  };
}

const inutilizacaoResponse = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' }, issuerId: { type: 'string', format: 'uuid' }, model: { type: 'string', enum: ['55', '65'] },
    serie: { type: 'integer' }, numeroInicial: { type: 'integer' }, numeroFinal: { type: 'integer' }, justificativa: { type: 'string' },
    status: { type: 'string', enum: [...INUTILIZACAO_STATUSES] }, protocolo: { type: ['string', 'null'] }, cStat: { type: ['integer', 'null'] }, xMotivo: { type: ['string', 'null'] },
    homologadaEm: { type: ['string', 'null'], format: 'date-time' }, ambiente: { type: 'integer', enum: [1, 2] }, createdAt: { type: 'string', format: 'date-time' },
    links: { type: 'object', properties: { xml: { type: ['string', 'null'] } } },
  },
};

const inutilizacaoDescription = `Inutiliza a faixa [numeroInicial, numeroFinal] de um emissor, modelo e série (no máximo ${MAX_RANGE} números; 422 FAIXA_INUTILIZACAO_INVERTIDA / FAIXA_INUTILIZACAO_EXCEDIDA). `
  + 'Serve para queimar lacunas (números pulados ou de notas REJECTED, que a autoridade nunca registrou) e reservar números à frente: a numeração automática pula toda faixa pendente ou homologada. '
  + 'Número de documento em qualquer outro estado: 409 FAIXA_CONTEM_NUMERO_UTILIZADO (details.numeros). Sobreposição com outra faixa: 409 FAIXA_JA_INUTILIZADA. '
  + 'A reserva da faixa é atômica com a numeração (mesmo bloqueio de linha). Rejeição da autoridade: 422 INUTILIZACAO_REJEITADA (details.cStat, details.xMotivo; a faixa volta a ficar livre). '
  + 'Sem resposta: 503 AUTORIDADE_INDISPONIVEL, faixa reservada (PENDING); repetir a mesma requisição conclui. Repetir uma faixa já homologada devolve 200 com o resultado existente.';

export function inutilizacaoAction(model: Model, path: string): ActionSchema {
  return {
    rest: `POST /${path}/inutilizacao`,
    httpStatus: 201,
    params: inutilizacaoParams,
    openapi: {
      summary: `Inutiliza faixa de numeração de ${label(model)}`, description: inutilizacaoDescription, tags: ['inutilizacao'], response: inutilizacaoResponse,
      alsoAnswers: { 200: 'A mesma faixa já homologada: o resultado existente.' },
      errors: { 409: 'FAIXA_CONTEM_NUMERO_UTILIZADO (details.numeros), FAIXA_JA_INUTILIZADA (details.faixas) ou EVENTO_EM_TRANSMISSAO (a mesma faixa ainda em transmissão).' },
    },
    async handler(this: EmissionSelf, ctx: Ctx<InutilizacaoBody>) {
      const { partnerId, keyKind } = partnerOf(ctx);
      const { created, view } = await inutilize(this.inutilizacaoDeps(ctx), { partnerId, keyKind, model, body: ctx.params });
      if (!created) ctx.meta.$statusCode = 200;
      return view;
    },
  };
}

export function listInutilizacaoAction(model: Model, path: string): ActionSchema {
  return {
    rest: `GET /${path}/inutilizacao`,
    params: listInutilizacaoParams,
    openapi: { summary: `Inutilizações de ${label(model)}, mais recentes primeiro`, tags: ['inutilizacao'], response: { type: 'object', properties: { items: { type: 'array', items: inutilizacaoResponse } } } },
    async handler(this: EmissionSelf, ctx: Ctx<{ issuerId?: string; serie?: number; limit?: number }>) {
      return listInutilizacoes(this.inutilizacaoDeps(ctx), partnerOf(ctx).partnerId, model, ctx.params);
    },
  };
}

export function inutilizacaoXmlAction(model: Model, path: string): ActionSchema {
  return {
    rest: `GET /${path}/inutilizacao/:id/xml`,
    params: { id: 'string' },
    raw: true,
    openapi: {
      summary: 'ProcInutNFe de uma inutilização homologada (409 antes)', tags: ['inutilizacao'], responseContentType: 'application/xml',
      errors: { 409: 'CONFLICT: inutilização ainda não homologada (details.status).' },
    },
    async handler(this: EmissionSelf, ctx: Ctx<{ id: string }>) {
      const { xml, filename } = await inutilizacaoXml(this.inutilizacaoDeps(ctx), partnerOf(ctx).partnerId, model, ctx.params.id);
      ctx.meta.$responseType = 'application/xml; charset=utf-8';
      ctx.meta.$responseHeaders = { 'Content-Disposition': `attachment; filename="${filename}"` };
      return xml;
    },
  };
}
