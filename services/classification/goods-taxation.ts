import type { Context, Service } from 'moleculer';
import { DomainError } from '../../lib/errors/index.js';
import { candidatesOf, candidateView, unfilledGroups, type CorrelationIndex } from '../../lib/classification/correlation.js';
import { CODE_OF, resolveItems, type ItemToResolve, type ResolutionResult } from '../../lib/classification/resolve.js';
import { parseTableFiles } from '../../lib/classification/table-files.js';
import { CORRELATION_SOURCE, type GoodsModel } from '../../lib/classification/types.js';
import { confirmClassSchema, confirmedJson, loadResultJson, loadTablesSchema, pendingJson, pendingQuerySchema, tableSummaryJson } from '../../lib/classification/schemas.js';
import { planIncludesFiscalBrain } from '../../lib/plans.js';
import { brasiliaDay } from '../../lib/emission/build-context.js';
import type { CallerMeta } from '../shared/caller.js';
import { runtimeOf } from '../shared/runtime.js';
import { PRODUCT_CLASS_EVENT, type ProductClassEvent } from '../shared/product-class-event.js';
import type { ClassTableStore } from './class-table-store.js';
import type { ProductClassStore } from './product-class-store.js';

/**
 * Assisted taxation of goods in the classification service (issue 17): the operator's table
 * versions, the resolution the emission service asks for under `resolverTributacao: true`, the
 * product class memory's pending list and confirmation, and the consumer of the accepted notes'
 * classes (services/shared/product-class-event.ts).
 */
type Ctx<P = Record<string, any>> = Context<P, CallerMeta>;

interface This extends Pick<Service, 'broker' | 'logger'> {
  classTables(): ClassTableStore;
  productClasses(): ProductClassStore;
  tableInUse(): Promise<CorrelationIndex>;
  ownIssuer(ctx: Ctx, issuerId: string): Promise<{ fiscalBrainEnabled: boolean }>;
}

const admin = { auth: 'jwt', roles: ['SUPERADMIN'] } as const;
const tags = ['tributação assistida'];
const now = (svc: This) => runtimeOf(svc.broker).clock.now();

export interface ResolveGoodsParams {
  issuerId: string;
  model: GoodsModel;
  day: string;
  items: ItemToResolve[];
}

export interface ResolveGoodsResult extends Pick<ResolutionResult, 'resolved' | 'sentClasses'> {
  versao: string;
  fonte: string;
}

/**
 * The module's gate on its own routes, as on the emission (API.md, "What the service does" 5: the
 * module requires a plan with fiscalBrain plus Issuer.fiscalBrainEnabled): the plan first (no
 * issuer is looked at), then the issuer — 404 for another partner's, 403 when its
 * fiscalBrainEnabled is off. A product's pending list and confirmations belong to the module: an
 * issuer that switched it off neither reads nor changes them until it switches it on again (the
 * stored classes are kept).
 */
async function requireModule(svc: This, ctx: Ctx, issuerId: string): Promise<void> {
  const caller = ctx.meta.caller;
  if (!caller?.partnerId) throw new DomainError('FORBIDDEN', undefined, 'Credencial sem parceiro.');
  if (!planIncludesFiscalBrain(caller.plan)) throw new DomainError('TRIBUTACAO_ASSISTIDA_INDISPONIVEL', { plano: caller.plan, planoIncluiFiscalBrain: false });
  const issuer = await svc.ownIssuer(ctx, issuerId);
  if (!issuer.fiscalBrainEnabled) throw new DomainError('TRIBUTACAO_ASSISTIDA_INDISPONIVEL', { plano: caller.plan, planoIncluiFiscalBrain: true, fiscalBrainEnabled: false });
}

export const goodsTaxationActions = {
  loadClassTables: {
    rest: 'POST /admin/classificacao/tabelas', ...admin, httpStatus: 201, params: loadTablesSchema,
    openapi: {
      summary: 'Carrega uma versão das tabelas da tributação assistida de mercadorias',
      description: 'Os quatro arquivos em base64 (UTF-8), no leiaute de data/classification: cclasstrib (CSV da tabela cClassTrib do Portal Nacional da NF-e), cst (CSV da tabela de CST do IBS/CBS), anexos (JSON com anexo, item, descricao, ncm_incluidos, ncm_excecoes por item dos anexos da LC 214/2025) e aliquotas (CSV ano,cbs,ibsUf,ibsMun,fonte com frações: 0.009 = 0,9 %); opcional aliquotasCbs, a tabela oficial de alíquotas da CBS (Ano,Alíquota): com ela a CBS de cada ano vem dela (cbs de aliquotas só para ano que ela não precifica, e divergente recusa). A versão é carregada inteira ou recusada (422 TABELA_CLASSIFICACAO_INVALIDA com details.linhas[] { arquivo, linha, motivo }); a última carregada passa a valer. Classes guardadas de produtos que deixam de ser candidatas do seu NCM passam a pendente (motivo candidatas_alteradas).',
      tags, response: loadResultJson,
    },
    async handler(this: This, ctx: Ctx<{ versao: string; cclasstrib: string; cst: string; anexos: string; aliquotas: string; aliquotasCbs?: string }>) {
      const text = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');
      const p = ctx.params;
      const parsed = parseTableFiles({
        versao: p.versao, cclasstrib: text(p.cclasstrib), cst: text(p.cst), anexos: text(p.anexos), aliquotas: text(p.aliquotas),
        ...(p.aliquotasCbs !== undefined ? { aliquotasCbs: text(p.aliquotasCbs) } : {}),
      });
      if (!parsed.ok) throw new DomainError('TABELA_CLASSIFICACAO_INVALIDA', { linhas: parsed.erros.slice(0, 200) });
      const at = now(this);
      const day = brasiliaDay(at);
      const { summary, substituida, pendentes } = await this.classTables().load(parsed.table, ctx.meta.caller?.userId ?? null, at, (trx, index) => this.productClasses().invalidateAll(trx, index, day, at));
      this.logger.info({ versao: summary.versao, classes: summary.classes, pendentes }, 'classification tables loaded');
      return { ...summary, substituida, pendentesMarcados: pendentes };
    },
  },

  listClassTables: {
    rest: 'GET /admin/classificacao/tabelas', ...admin, params: { $$strict: true },
    openapi: { summary: 'Versões carregadas das tabelas da tributação assistida', description: 'Da mais recente (em uso) para a mais antiga.', tags, response: { type: 'array', items: tableSummaryJson } },
    handler(this: This) { return this.classTables().summaries(); },
  },

  /** Internal (emission): the classes of a note's items, or the refusal of API.md rule 9. */
  resolveGoods: {
    visibility: 'public' as const,
    params: {
      issuerId: { type: 'string', min: 1, max: 64 }, model: { type: 'enum', values: ['55', '65'] }, day: { type: 'string', length: 10 },
      items: { type: 'array', max: 990, items: 'object' },
    },
    async handler(this: This, ctx: Ctx<ResolveGoodsParams>): Promise<ResolveGoodsResult> {
      const { issuerId, model, day, items } = ctx.params;
      const index = await this.tableInUse();
      const memory = await this.productClasses().get(issuerId, items.map((i) => i.codigo));
      const result = resolveItems({ index, model, day, items, memory });
      if (result.unresolved.length) {
        // The pending list (API.md): items refused as multi-class enter it now. This is the
        // classification memory, not the note: no document, number or idempotent answer is stored.
        const multi = result.unresolved.filter((u) => u.motivo === 'ncm_multiclasse');
        await this.productClasses().recordMulticlass(issuerId, multi.map((u) => ({ codigo: u.codigo, ncm: u.ncm })), now(this));
        const first = result.unresolved[0]!;
        throw new DomainError(CODE_OF[first.motivo], { itensNaoResolvidos: result.unresolved, versaoTabela: index.table.versao, fonte: CORRELATION_SOURCE });
      }
      return { resolved: result.resolved, sentClasses: result.sentClasses, versao: index.table.versao, fonte: CORRELATION_SOURCE };
    },
  },

  listPending: {
    rest: 'GET /fiscal/classification/pendentes', params: pendingQuerySchema,
    openapi: {
      summary: 'Produtos com classe IBS/CBS pendente de confirmação',
      description: 'Por emissor (404 para emissor de outro parceiro): produtos recusados com NCM_MULTICLASSE sem classe confirmada (motivo multiclasse), produtos cuja classe guardada deixou de ser candidata do NCM numa nova versão das tabelas (candidatas_alteradas, com cClassTribAnterior) e produtos cuja classe confirmada foi substituída por uma enviada (deslocou_confirmada, com cClassTribAnterior e deslocouEm). Cada um com as candidatas do NCM na versão em uso. Paginado por page/limit. Exige plano com fiscalBrain e o emissor com fiscalBrainEnabled (senão 403 TRIBUTACAO_ASSISTIDA_INDISPONIVEL, como na emissão).',
      tags, query: ['issuerId', 'page', 'limit'], response: pendingJson,
    },
    async handler(this: This, ctx: Ctx<{ issuerId: string; page: number; limit: number }>) {
      await requireModule(this, ctx, ctx.params.issuerId);
      const { page, limit } = ctx.params;
      const index = await this.tableInUse();
      const day = brasiliaDay(now(this));
      const { total, items } = await this.productClasses().pending(ctx.params.issuerId, page, limit);
      return {
        total, page, limit, versaoTabela: index.table.versao, fonte: CORRELATION_SOURCE,
        items: items.map((r) => {
          const c = candidatesOf(index, r.ncm, day);
          return { ...r, candidatas: c.classes.map((k) => candidateView(k, c.annexItems)) };
        }),
      };
    },
  },

  confirmClass: {
    rest: 'POST /fiscal/classification/classe', params: confirmClassSchema,
    openapi: {
      summary: 'Confirma a classe IBS/CBS de um produto',
      description: 'Guarda cClassTrib para o produto (issuerId + codigo) com origem confirmado, ou contador quando o usuário tem o papel CONTADOR; limpa a marca deslocou_confirmada e tira o produto da lista de pendentes. A classe precisa ser candidata do NCM do produto (422 CCLASSTRIB_INVALIDO_PARA_NCM com details.candidatas) e sem grupo que a API não preenche (422 CCLASSTRIB_EXIGE_GRUPO com details.grupos); o NCM é o guardado, ou ncm do corpo (obrigatório para produto nunca visto: 422 PRODUTO_SEM_NCM). As emissões seguintes com resolverTributacao usam essa classe. Exige plano com fiscalBrain e o emissor com fiscalBrainEnabled (senão 403 TRIBUTACAO_ASSISTIDA_INDISPONIVEL).',
      tags, response: confirmedJson,
    },
    async handler(this: This, ctx: Ctx<{ issuerId: string; codigo: string; cClassTrib: string; ncm?: string }>) {
      const { issuerId, codigo, cClassTrib } = ctx.params;
      await requireModule(this, ctx, issuerId);
      const stored = (await this.productClasses().get(issuerId, [codigo])).get(codigo);
      const ncm = ctx.params.ncm ?? stored?.ncm;
      if (!ncm) throw new DomainError('PRODUTO_SEM_NCM', { codigo });
      const index = await this.tableInUse();
      const at = now(this);
      const c = candidatesOf(index, ncm, brasiliaDay(at));
      const klass = c.classes.find((k) => k.cClassTrib === cClassTrib);
      if (!klass) {
        throw new DomainError('CCLASSTRIB_INVALIDO_PARA_NCM', { codigo, ncm, cClassTrib, candidatas: c.classes.map((k) => candidateView(k, c.annexItems)), versaoTabela: index.table.versao, fonte: CORRELATION_SOURCE });
      }
      // A class no note of this API can carry would refuse every later emission of the product.
      const grupos = unfilledGroups(index, klass);
      if (grupos.length) throw new DomainError('CCLASSTRIB_EXIGE_GRUPO', { codigo, ncm, cClassTrib, grupos, versaoTabela: index.table.versao });
      const saved = await this.productClasses().confirm(issuerId, codigo, ncm, cClassTrib, ctx.meta.caller?.role === 'CONTADOR', at);
      return { ...saved, nome: klass.nome, versaoTabela: index.table.versao, fonte: CORRELATION_SOURCE };
    },
  },
};

/**
 * Product classes of accepted notes, handed over by the emission outbox relay (services/mixins/
 * outbox.mixin.ts) as a request/response call: the relay marks its row published only for the ids
 * answered here, each applied once per event id in this service's own tables. So Redis is never
 * where a class write can be lost (issue 20, defect 5).
 */
export const acceptProductClassEvents = {
  visibility: 'public',
  params: { events: { type: 'array', max: 500, items: 'any' } },
  async handler(this: This, ctx: Context<{ events: ProductClassEvent[] }>): Promise<{ accepted: string[] }> {
    const accepted: string[] = [];
    for (const event of ctx.params.events) {
      if (event?.type !== PRODUCT_CLASS_EVENT) continue; // never taken: the row stays pending and visible
      const applied = await this.productClasses().applyAcceptedNote(event.id, event.data.issuerId, event.data.classes, new Date(event.timestamp));
      if (applied) this.logger.debug({ eventId: event.id, issuerId: event.data.issuerId, items: event.data.classes.length }, 'product classes recorded');
      accepted.push(event.id);
    }
    return { accepted };
  },
};
