import { buildAccessKey, UF_BY_SIGLA } from '../nfe/access-key.js';
import type { EmissionContext, ResponsibleTechnician, TpEmis } from '../nfe/xml/context.js';
import type { BuildContext } from './pipeline.js';

/** Brasília has used UTC−03:00 all year since 2019 (Decreto 9.772/2019 ended daylight saving). */
const BRASILIA_OFFSET_MS = -3 * 60 * 60 * 1000;

/** dhEmi as the layout writes it: local Brasília time with its offset, seconds precision. */
export function brasiliaDateTime(at: Date): string {
  return `${new Date(at.getTime() + BRASILIA_OFFSET_MS).toISOString().slice(0, 19)}-03:00`;
}

/** The calendar day (YYYY-MM-DD) of `at` in Brasília: the day dhEmi names, for tables by validity. */
export function brasiliaDay(at: Date): string {
  return brasiliaDateTime(at).slice(0, 10);
}

/**
 * The builder's context for one document. The access key is derived here from the fields the
 * emission service stored (series, number, cNF, tpEmis, emission time), so a resend rebuilds the
 * very same key.
 */
export function toEmissionContext(ctx: BuildContext, respTec: ResponsibleTechnician, verProc: string): EmissionContext {
  const dhEmi = brasiliaDateTime(ctx.emittedAt);
  const cUF = UF_BY_SIGLA[ctx.issuer.endereco.uf];
  if (!cUF) throw new Error(`issuer UF '${ctx.issuer.endereco.uf}' has no IBGE code`);
  const accessKey = buildAccessKey({
    cUF, aamm: dhEmi.slice(2, 4) + dhEmi.slice(5, 7), document: ctx.issuer.cnpj, model: ctx.model,
    serie: ctx.series, numero: ctx.number, tpEmis: ctx.tpEmis, cNF: ctx.cnf,
  });
  return {
    issuer: ctx.issuer, numero: ctx.number, serie: ctx.series, cNF: ctx.cnf, accessKey, dhEmi,
    tpEmis: ctx.tpEmis as TpEmis, tpAmb: ctx.ambiente, respTec, verProc,
    ...(ctx.contingency ? { contingency: { dhCont: brasiliaDateTime(ctx.contingency.startedAt), xJust: ctx.contingency.justificativa } } : {}),
  };
}
