import type { ActionSchema } from 'moleculer';
import { resolvedItemsJson } from '../../lib/classification/schemas.js';
import type { Ctx, EmissionSelf } from './service-this.js';
import type { Model } from '../../lib/nfe/types.js';
import { detailView } from '../../lib/emission/document.js';
import { DOCUMENT_STATUSES } from '../../lib/emission/state.js';
import { emitDocument } from './emit.js';
import { isSettledAnswer } from '../../lib/emission/idempotent-retry.js';
import { lastCartaCorrecao } from './dacce.js';
import { listDescription, listParams, listDocuments, ownDocument, downloadXml, printableDocument, type DanfeLogo, type ListQuery, type PrintFormat } from './queries.js';
import { contingencyResponseProperties, contingencyDescription } from './contingency-openapi.js';
import { nfceBodySchema, nfeBodySchema } from '../../lib/nfe/schema.js';
import { NFCE_REQUEST_EXAMPLE, NFE_REQUEST_EXAMPLE } from './openapi-examples.js';
import { partnerOf, readerOf } from './reader.js';

/**
 * The per-model document actions of the emission service (emit, list, get, XML, DANFE), one
 * factory each for NF-e and NFC-e; the service (services/emission.service.ts) mounts them.
 */
export type { Ctx };

const invoiceResponse = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: [...DOCUMENT_STATUSES] },
    model: { type: 'string', enum: ['55', '65'] },
    accessKey: { type: ['string', 'null'], pattern: '^\\d{44}$' },
    number: { type: 'integer' }, series: { type: 'integer' },
    amount: { type: 'string', description: 'decimal string' },
    protocol: { type: ['string', 'null'] },
    issuerId: { type: 'string', format: 'uuid' },
    createdAt: { type: 'string', format: 'date-time' },
    links: { type: 'object', properties: { self: { type: 'string' }, xml: { type: 'string' }, eventos: { type: 'string', description: 'Eventos do documento (cancelamento, carta de correção).' }, danfe: { type: 'string', description: 'DANFE (NF-e) ou DANFCE (NFC-e) em PDF.' }, danfeHtml: { type: 'string', description: 'O mesmo documento em HTML.' } } },
    ...contingencyResponseProperties,
    tributacaoResolvida: resolvedItemsJson,
    // The consult (GET /{id}, the lists) answers these too (lib/emission/document.ts detailView).
    ambiente: { enum: [1, 2], description: 'tpAmb: 1 produção, 2 homologação. Na consulta.' },
    situacao: { enum: ['indeterminada', null], description: 'indeterminada enquanto o documento não tem resultado final. Na consulta.' },
    authorizedAt: { type: ['string', 'null'], format: 'date-time', description: 'Na consulta.' },
    erros: {
      type: ['array', 'null'], description: 'Motivos da autoridade (rejeição, denegação, falha), verbatim. Na consulta.',
      items: { type: 'object', properties: { codigo: { type: 'string' }, descricao: { type: 'string' } } },
    },
    motivo: { type: ['string', 'null'], description: 'O último motivo de uma mudança de estado. Na consulta.' },
    proximaVerificacaoEm: { type: ['string', 'null'], format: 'date-time', description: 'Quando a reconciliação verifica de novo um documento aberto. Na consulta.' },
    updatedAt: { type: 'string', format: 'date-time', description: 'Na consulta.' },
  },
};

const emitDescription = 'Ordem: campos desconhecidos ou issuerId que não é UUID (400 VALIDATION_ERROR, com qualquer emissor ou sem issuerId) → emissor (400 vários emissores sem issuerId, 404 de outro parceiro, 403 ek_test_ com emissor em produção) → demais regras da validação estrita (400) → regras (422) '
  + '→ preflight (422 CERTIFICADO_AUSENTE, CADASTRO_EMISSOR_INCOMPLETO, CSC_AUSENTE; antes das regras só quando falta o crt, que as regras leem) '
  + '→ XML montado e conferido (422 DOCUMENTO_EXCEDE_TAMANHO_MAXIMO acima de 500 KB, o limite da autoridade, com details.tamanhoBytes e details.limiteBytes; 422 XML_FORA_DO_ESQUEMA) → numeração → assinatura → TRANSMITTING → autoridade. '
  + '201 com status AUTHORIZED; TRANSMITTING/ERROR quando a autoridade não respondeu (consulte GET /{id} ou aguarde o webhook; não reemita). '
  + 'Rejeição: 400 com erros[] verbatim e details.invoiceId (XML transmitido em /{id}/xml). Uso denegado: 400, status DENEGADA. '
  + '`numero` informado repete um número de documento em CREATED/TRANSMITTING/ERROR com até 7 dias: reenvio com a mesma chave; senão 409 NUMERO_JA_UTILIZADO. '
  + 'Enquanto a transmissão anterior do documento ainda aguarda a autoridade, o reenvio é 409 DOCUMENTO_EM_TRANSMISSAO (details.invoiceId, details.status): uma só transmissão por vez. Essa recusa não fica gravada para a Idempotency-Key: repetir depois reprocessa. '
  + 'Rajadas de um mesmo emissor esperam a vez na numeração e na conexão com a autoridade, sem afetar outros emissores; só em sobrecarga real: 503 EMISSOR_SOBRECARREGADO (details.issuerId), antes da numeração (repita depois).';

const idempotencyDescription = 'Vinculada ao documento na numeração (única por parceiro e modelo): toda repetição — após 5xx, queda de um nó ou timeout — '
  + 'responde o mesmo documento no estado atual (nunca um novo número) e, se a primeira tentativa morreu sem resposta, continua o mesmo documento '
  + '(consulta pela chave antes de qualquer reenvio). Outro corpo com a mesma chave: 422 IDEMPOTENCIA_CORPO_DIVERGENTE. '
  + 'Um 5xx depois da numeração traz details.invoiceId e details.status. '
  + 'Passadas as 24 horas da chave, a repetição é validada como requisição nova antes de tudo; se válida, responde o documento vinculado.';

function emitDescriptionOf(model: Model): string {
  return model === '65' ? `${emitDescription} ${contingencyDescription}` : emitDescription;
}

export function emitAction(model: Model, path: string): ActionSchema {
  return {
    rest: `POST /${path}`,
    httpStatus: 201,
    // The key is bound to the document in the numbering transaction (services/emission/idempotent-retry.ts).
    idempotency: 'document',
    idempotencyLookup: { action: 'v1.emission.boundDocument', params: { model } },
    openapi: {
      summary: `Emite ${model === '55' ? 'NF-e (modelo 55)' : 'NFC-e (modelo 65)'}`, description: emitDescriptionOf(model), tags: ['documentos'], response: { $ref: '#/components/schemas/Documento' }, components: { Documento: invoiceResponse },
      headers: [{ name: 'Idempotency-Key', description: idempotencyDescription }],
      // The gateway names the created note (services/gateway/body.ts setLocation, from links.self).
      location: `/v1/${path}/{id}`,
      errors: {
        404: 'NOT_FOUND: issuerId de outro parceiro ou inexistente.',
        409: 'NUMERO_JA_UTILIZADO, NUMERO_INUTILIZADO ou RETOMADA_CONTINGENCIA_NAO_RESTAURAVEL (numero informado); DOCUMENTO_EM_TRANSMISSAO (details.invoiceId, details.status).',
      },
      // Validated by the handler (lib/emission/pipeline.ts, in the order of services/emission/emit.ts), documented from the same schema.
      body: model === '55' ? nfeBodySchema : nfceBodySchema, requestExample: model === '55' ? NFE_REQUEST_EXAMPLE : NFCE_REQUEST_EXAMPLE,
    },
    async handler(this: EmissionSelf, ctx: Ctx) {
      const { partnerId, keyKind } = partnerOf(ctx);
      const view = await emitDocument(this.deps(ctx), { partnerId, keyKind, model, body: ctx.params, idempotencyKey: ctx.meta.idempotencyKey ?? null, keyFirstUse: ctx.meta.idempotencyFirstUse === true });
      // A note still open changes: a retry must see it then, not this answer replayed.
      if (!isSettledAnswer(view.status)) ctx.meta.$idempotencyKeep = false;
      return view;
    },
  };
}

export function listAction(model: Model, path: string): ActionSchema {
  return {
    rest: `GET /${path}`,
    params: listParams,
    openapi: { summary: `Lista ${model === '55' ? 'NF-e' : 'NFC-e'}`, description: listDescription, tags: ['documentos'] },
    async handler(this: EmissionSelf, ctx: Ctx<ListQuery>) {
      return listDocuments(this.store, readerOf(ctx), model, ctx.params);
    },
  };
}

export function getAction(model: Model, path: string): ActionSchema {
  return {
    rest: `GET /${path}/:id`,
    params: { id: 'string' },
    openapi: { summary: `Consulta ${model === '55' ? 'NF-e' : 'NFC-e'} (use após timeout, em vez de reemitir)`, tags: ['documentos'] },
    async handler(this: EmissionSelf, ctx: Ctx<{ id: string }>) {
      return detailView(await ownDocument(this.store, readerOf(ctx), model, ctx.params.id));
    },
  };
}

export function xmlAction(model: Model, path: string): ActionSchema {
  return {
    rest: `GET /${path}/:id/xml`,
    params: { id: 'string' },
    raw: true,
    openapi: {
      summary: 'XML do documento: nfeProc de nota autorizada ou cancelada, ou XML assinado transmitido de nota rejeitada', tags: ['documentos'], responseContentType: 'application/xml',
      errors: { 409: 'CONFLICT: documento sem XML no estado atual (details.status).' },
    },
    async handler(this: EmissionSelf, ctx: Ctx<{ id: string }>) {
      const doc = await ownDocument(this.store, readerOf(ctx), model, ctx.params.id);
      const { xml, filename } = await downloadXml(this.store, doc);
      ctx.meta.$responseType = 'application/xml; charset=utf-8';
      ctx.meta.$responseHeaders = { 'Content-Disposition': `attachment; filename="${filename}"` };
      return xml;
    },
  };
}

const printableDescription = 'Documento auxiliar para impressão, gerado do XML guardado: DANFE da NF-e no formato do tpImp (1 retrato, 2 paisagem, 3 simplificado-etiqueta; formatoDanfe do emissor), '
  + 'com o logotipo do emissor quando cadastrado; DANFE NFC-e 80 mm com QR Code (NFC-e). NF-e: cartaCorrecao=true imprime a última carta de correção registrada nas informações complementares. '
  + 'Disponível para AUTHORIZED, CANCELADA (com a marca CANCELADA) e NFC-e em CONTINGENCIA_PENDENTE (EMITIDA EM CONTINGÊNCIA, pendente de autorização); '
  + 'homologação traz SEM VALOR FISCAL. Outros status: 409 DOCUMENTO_SEM_DANFE (details.status). PDF como anexo (<chave>-danfe.pdf / -danfce.pdf); HTML inline.';

export function printableAction(model: Model, path: string, format: PrintFormat): ActionSchema {
  const name = model === '55' ? 'danfe' : 'danfce';
  return {
    rest: `GET /${path}/:id/${name}.${format}`,
    // NF-e only: a reprint may carry the last registered CC-e in the complementary information.
    params: model === '55' ? { id: 'string', cartaCorrecao: { type: 'boolean', convert: true, optional: true } } : { id: 'string' },
    raw: true,
    openapi: {
      summary: `${model === '55' ? 'DANFE da NF-e' : 'DANFE NFC-e (DANFCE)'} em ${format === 'pdf' ? 'PDF' : 'HTML'}`,
      description: printableDescription, tags: ['documentos'], responseContentType: format === 'pdf' ? 'application/pdf' : 'text/html',
      errors: { 409: 'DOCUMENTO_SEM_DANFE: documento rejeitado, em transmissão ou em outro status sem DANFE (details.status).' },
    },
    async handler(this: EmissionSelf, ctx: Ctx<{ id: string; cartaCorrecao?: boolean }>) {
      const doc = await ownDocument(this.store, readerOf(ctx), model, ctx.params.id);
      const cartaCorrecao = model === '55' && ctx.params.cartaCorrecao ? await lastCartaCorrecao(this.eventDeps(ctx), doc.id) : undefined;
      // Only the NF-e DANFE has the emitter block that carries the issuer's logo.
      const logo = model === '55' ? await ctx.call<DanfeLogo | null, { partnerId: string; issuerId: string }>('v1.issuer.logoForPrint', { partnerId: doc.partnerId, issuerId: doc.issuerId }) : null;
      const out = await printableDocument(this.store, doc, format, this.printPool.rendererFor(doc.partnerId), { logo, cartaCorrecao });
      ctx.meta.$responseType = out.contentType;
      ctx.meta.$responseHeaders = { 'Content-Disposition': out.disposition };
      return out.body;
    },
  };
}
