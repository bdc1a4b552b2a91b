import type { Context, Service, ServiceSchema } from 'moleculer';
import { DbMixin, type DbMethods } from './mixins/db.mixin.js';
import { migrations } from '../migrations/classification/index.js';
import type { CallerMeta } from './shared/caller.js';
import { runtimeOf } from './shared/runtime.js';
import { DomainError } from '../lib/errors/index.js';
import { decodeTableText, parseIbptTable } from '../lib/approximate-tax/ibpt-csv.js';
import { federalRateFor, formatPercent, toRateRecord, type RateRecord } from '../lib/approximate-tax/rate.js';
import { importResultJson, importTableSchema, listTablesSchema, rateJson, rateQuerySchema, tableJson } from '../lib/approximate-tax/schemas.js';
import { brasiliaDay } from '../lib/emission/build-context.js';
import { ApproximateTaxStore } from './classification/approximate-tax-store.js';
import { ClassTableStore } from './classification/class-table-store.js';
import { ProductClassStore } from './classification/product-class-store.js';
import { acceptProductClassEvents, goodsTaxationActions } from './classification/goods-taxation.js';
import { defaultTable } from './classification/default-tables.js';
import type { CorrelationIndex } from '../lib/classification/correlation.js';

const SCHEMA = 'classification';
const admin = { auth: 'jwt', roles: ['SUPERADMIN'] } as const;
const tags = ['tributos aproximados'];

type Ctx<P = Record<string, any>> = Context<P, CallerMeta>;

/** What the handlers below see as `this`: the service, its database and its own methods. */
type Classification = Service & DbMethods & {
  approximateTaxStore?: ApproximateTaxStore;
  classTableStore?: ClassTableStore;
  productClassStore?: ProductClassStore;
  store(): ApproximateTaxStore;
  classTables(): ClassTableStore;
  productClasses(): ProductClassStore;
  tableInUse(): Promise<CorrelationIndex>;
  ownIssuer(ctx: Ctx, issuerId: string): Promise<{ fiscalBrainEnabled: boolean }>;
};

/**
 * classification: reference tax tables and their lookups. It owns the approximate-tax tables
 * of Lei 12.741 (per UF, in the IBPT layout) that the emission service reads through `ratesFor`
 * when an issuer enables `valorAproximadoTributosEnabled`. The platform operator loads them
 * (POST /v1/admin/tributos-aproximados or `npm run admin -- import-ibpt`); nothing ships with made-up rates.
 *
 * It also owns assisted taxation of goods (classification/goods-taxation.ts): the versioned
 * cClassTrib/CST/LC 214 annex/rate tables (the default version ships in data/classification and is
 * loaded when none exists), the resolution the emission service calls, and the product class memory.
 */
const ClassificationService: ServiceSchema = {
  name: 'classification',
  version: 1,
  settings: { rest: '/' },
  mixins: [DbMixin({ schema: SCHEMA, migrations })],


  actions: {
    ...goodsTaxationActions,
    acceptProductClassEvents: acceptProductClassEvents as any,

    importApproximateTaxTable: {
      rest: 'POST /admin/tributos-aproximados', ...admin, httpStatus: 201, params: importTableSchema,
      openapi: {
        summary: 'Carrega a tabela de tributos aproximados (Lei 12.741) de uma UF',
        description: 'conteudo: o arquivo CSV no leiaute do IBPT (TabelaIBPTax<UF><versão>.csv: codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;municipal;vigenciainicio;vigenciafim;chave;versao;fonte), em base64, UTF-8 ou Windows-1252. A UF vem de uf ou do nomeArquivo. Só linhas de NCM (tipo 0) são usadas. Uma versão é carregada inteira ou recusada (422 TABELA_TRIBUTOS_INVALIDA com details.linhas[] { linha, motivo }); carregar de novo a mesma versão a substitui. Versões futuras podem ser carregadas antes de vigorar.',
        tags, response: importResultJson,
      },
      async handler(this: Classification, ctx: Ctx<{ conteudo: string; uf?: string; nomeArquivo?: string }>) {
        const bytes = Buffer.from(ctx.params.conteudo, 'base64');
        const parsed = parseIbptTable(decodeTableText(bytes), { ...(ctx.params.uf ? { uf: ctx.params.uf } : {}), ...(ctx.params.nomeArquivo ? { fileName: ctx.params.nomeArquivo } : {}) });
        if (!parsed.ok) throw new DomainError('TABELA_TRIBUTOS_INVALIDA', { linhas: parsed.erros });
        const { summary, substituida } = await this.store().replace(parsed.table, ctx.meta.caller?.userId ?? null, runtimeOf(this.broker).clock.now());
        this.logger.info({ uf: summary.uf, versao: summary.versao, linhas: summary.linhas, substituida }, 'approximate-tax table loaded');
        return { ...summary, substituida };
      },
    },

    listApproximateTaxTables: {
      rest: 'GET /admin/tributos-aproximados', ...admin, params: listTablesSchema,
      openapi: { summary: 'Versões carregadas das tabelas de tributos aproximados', description: 'Por UF, da vigência mais recente para a mais antiga.', tags, query: ['uf'], response: { type: 'array', items: tableJson } },
      handler(this: Classification, ctx: Ctx<{ uf?: string }>) {
        return this.store().summaries(undefined, ctx.params.uf ? { uf: ctx.params.uf } : {});
      },
    },

    approximateTaxRate: {
      rest: 'GET /fiscal/tributos-aproximados', params: rateQuerySchema,
      openapi: {
        summary: 'Alíquotas aproximadas (Lei 12.741) de um NCM numa UF',
        description: 'A linha vigente em data (padrão: hoje, horário de Brasília) da tabela carregada para a UF: é a que a emissão usa quando o emissor tem valorAproximadoTributosEnabled. Com origem (0-8), percentualAplicavel soma o federal dessa origem, o estadual e o municipal. 404 sem linha vigente.',
        tags, query: ['uf', 'ncm', 'origem', 'data'], response: rateJson,
        errors: { 404: 'NOT_FOUND: nenhuma alíquota aproximada vigente para o NCM na UF e data (details.uf, details.ncm, details.data).' },
      },
      async handler(this: Classification, ctx: Ctx<{ uf: string; ncm: string; origem?: number; data?: string }>) {
        const day = ctx.params.data ?? brasiliaDay(runtimeOf(this.broker).clock.now());
        const [line] = await this.store().linesFor(ctx.params.uf, day, [ctx.params.ncm]);
        if (!line || line.vigenciaFim < day) throw new DomainError('NOT_FOUND', { uf: ctx.params.uf, ncm: ctx.params.ncm, data: day }, 'Nenhuma alíquota aproximada vigente para este NCM nesta UF e data.');
        const pct = (p: bigint) => Number(formatPercent(p));
        const origem = ctx.params.origem;
        return {
          uf: line.uf, ncm: line.ncm, descricao: line.descricao,
          nacionalFederal: pct(line.nacionalFederal), importadosFederal: pct(line.importadosFederal), estadual: pct(line.estadual), municipal: pct(line.municipal),
          percentualAplicavel: origem === undefined ? null : pct(federalRateFor(line, origem) + line.estadual + line.municipal),
          vigenciaInicio: line.vigenciaInicio, vigenciaFim: line.vigenciaFim, versao: line.versao, chave: line.chave, fonte: line.fonte,
        };
      },
    },

    /** Internal (emission): per NCM, the newest base line of the UF started on or before `day`. */
    ratesFor: {
      visibility: 'public',
      params: { uf: { type: 'string', length: 2 }, day: { type: 'string', length: 10 }, ncms: { type: 'array', items: 'string', max: 990 } },
      async handler(this: Classification, ctx: Ctx<{ uf: string; day: string; ncms: string[] }>): Promise<RateRecord[]> {
        const lines = await this.store().linesFor(ctx.params.uf, ctx.params.day, ctx.params.ncms);
        return lines.map(toRateRecord);
      },
    },
  },

  methods: {
    store(this: Classification): ApproximateTaxStore {
      this.approximateTaxStore ??= new ApproximateTaxStore(this.knex, SCHEMA);
      return this.approximateTaxStore;
    },
    classTables(this: Classification): ClassTableStore {
      this.classTableStore ??= new ClassTableStore(this.knex, SCHEMA);
      return this.classTableStore;
    },
    productClasses(this: Classification): ProductClassStore {
      this.productClassStore ??= new ProductClassStore(this.knex, SCHEMA);
      return this.productClassStore;
    },
    async tableInUse(this: Classification): Promise<CorrelationIndex> {
      const index = await this.classTables().current();
      // started() loads the shipped version when none exists, so this is a broken database.
      if (!index) throw new Error('no classification table version loaded');
      return index;
    },
    /** The caller's issuer (404 for another partner's: API.md, emission rule 2), answered by the issuer service. */
    async ownIssuer(this: Classification, ctx: Ctx, issuerId: string): Promise<{ fiscalBrainEnabled: boolean }> {
      return ctx.call('v1.issuer.get', { partnerId: ctx.meta.caller!.partnerId, issuerId });
    },
  },

  async started(this: Service) {
    // Moleculer types a lifecycle hook's `this` as the bare Service.
    const self = this as Classification;
    const loaded = await self.classTables().loadIfEmpty(defaultTable, runtimeOf(self.broker).clock.now());
    if (loaded) self.logger.info('classification: default table version loaded from data/classification');
  },
};

export default ClassificationService;
