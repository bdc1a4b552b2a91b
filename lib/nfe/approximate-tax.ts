import { DomainError } from '../errors/index.js';
import { formatBrl } from '../money.js';
import { applyPercent, federalRateFor, type ApproximateTaxRate } from '../approximate-tax/rate.js';
import { cents } from './rules/amounts.js';
import type { ApproximateTaxAmounts, CheckedItem, CheckedNote, NoteApproximateTax } from './types.js';

/**
 * The approximate tax burden of Lei 12.741/2012 for an issuer that enables it
 * (`valorAproximadoTributosEnabled`, API.md Issuer): computed by the service from each item's NCM,
 * the issuer's UF and the goods origin, never taken from the request.
 *
 * Per item: federal (national or imported rate by `icms.origem`), state and municipal burdens, each
 * `base × rate` rounded to the cent, with base = the item's net price (vProd − vDesc), the price
 * the consumer pays for the goods. The item's vTotTrib (M02) is their sum; the note's
 * (ICMSTot/vTotTrib, W16a) the sum of the items, so the authority's "total differs from the sum of
 * the items" check always holds. The split federal/state/municipal and the source of the rates
 * (Decreto 8.264/2014 art. 2) go to the consumer in infCpl.
 *
 * Every item must have a rate in force on the emission day: a note that would show a partial or
 * stale value is refused (422 TRIBUTOS_APROXIMADOS_INDISPONIVEIS) before numbering.
 */

export const INF_CPL_MAX = 5000;

export interface UnresolvedItem {
  index: number;
  ncm: string;
  motivo: string;
}

/** dd/mm/aaaa of an ISO day, for messages. */
const brDay = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

function whyUnusable(ncm: string, rate: ApproximateTaxRate | undefined, uf: string, day: string): string | undefined {
  if (!/^\d{8}$/.test(ncm)) return 'NCM de 2 dígitos não tem alíquota aproximada: informe o NCM completo (8 dígitos)';
  if (!rate) return `NCM sem alíquota na tabela de tributos aproximados vigente para a UF ${uf}`;
  if (rate.vigenciaInicio > day) return `tabela de tributos aproximados da UF ${uf} (versão ${rate.versao}) vigente somente a partir de ${brDay(rate.vigenciaInicio)}`;
  if (rate.vigenciaFim < day) return `tabela de tributos aproximados da UF ${uf} (versão ${rate.versao}) vencida em ${brDay(rate.vigenciaFim)}`;
  return undefined;
}

export function itemApproximateTax(item: Pick<CheckedItem, 'valorTotalCents' | 'desconto' | 'icms'>, rate: ApproximateTaxRate): ApproximateTaxAmounts {
  const net = item.valorTotalCents - cents(item.desconto);
  const base = net > 0n ? net : 0n;
  const federal = applyPercent(base, federalRateFor(rate, item.icms.origem));
  const estadual = applyPercent(base, rate.estadual);
  const municipal = applyPercent(base, rate.municipal);
  return { federal, estadual, municipal, total: federal + estadual + municipal };
}

/**
 * Table text fit for infCpl, whose layout type (TString) admits U+0020-U+00FF only: typographic
 * dashes, quotes and ellipsis become their ASCII forms, anything else outside the range '?'.
 */
function layoutSafe(text: string): string {
  return text.replace(/[\u2013\u2014]/g, '-').replace(/[\u2018\u2019]/g, "'").replace(/[\u201C\u201D]/g, '"').replace(/\u2026/g, '...')
    .replace(/[^\x20-\xFF]/g, '?').replace(/ {2,}/g, ' ').trim();
}

/** The consumer text: the three burdens and the source(s) of the rates. */
export function approximateTaxText(t: ApproximateTaxAmounts, sources: readonly Pick<ApproximateTaxRate, 'fonte' | 'versao' | 'chave'>[]): string {
  const distinct = [...new Map(sources.map((s) => [`${s.fonte}|${s.versao}|${s.chave}`, s])).values()];
  const fonte = distinct.map((s) => layoutSafe(`${s.fonte || 'tabela'} ${s.versao}${s.chave ? ` (chave ${s.chave})` : ''}`)).join('; ');
  return `Tributos aproximados (Lei 12.741/2012): R$ ${formatBrl(t.federal)} federais, R$ ${formatBrl(t.estadual)} estaduais e R$ ${formatBrl(t.municipal)} municipais. Fonte: ${fonte}.`;
}

/**
 * The note with every item's approximate tax and the note's sum and text. `rates` holds, per NCM,
 * the base line (no tariff exception) of the issuer's UF that is the newest to have started on or
 * before `day` (ISO date of dhEmi in Brasília); `uf` names the table in messages.
 */
export function applyApproximateTax(note: CheckedNote, rates: ReadonlyMap<string, ApproximateTaxRate>, uf: string, day: string): CheckedNote {
  const unresolved: UnresolvedItem[] = [];
  const used: ApproximateTaxRate[] = [];
  const sum = { federal: 0n, estadual: 0n, municipal: 0n, total: 0n };
  const items = note.items.map((item, index) => {
    const rate = rates.get(item.ncm);
    const why = whyUnusable(item.ncm, rate, uf, day);
    if (why) { unresolved.push({ index, ncm: item.ncm, motivo: why }); return item; }
    used.push(rate!);
    const tax = itemApproximateTax(item, rate!);
    sum.federal += tax.federal; sum.estadual += tax.estadual; sum.municipal += tax.municipal; sum.total += tax.total;
    return { ...item, approximateTax: tax };
  });
  if (unresolved.length) throw new DomainError('TRIBUTOS_APROXIMADOS_INDISPONIVEIS', { itensNaoResolvidos: unresolved });
  const texto = approximateTaxText(sum, used);
  const sent = note.informacoesComplementares;
  if (sent !== undefined && sent.length + 1 + texto.length > INF_CPL_MAX) {
    const max = INF_CPL_MAX - 1 - texto.length;
    throw new DomainError('VALIDATION_ERROR', {
      errors: [{ field: 'informacoesComplementares', message: `informacoesComplementares deve ter no máximo ${max} caracteres quando o emissor exibe o valor aproximado dos tributos (o texto da Lei 12.741 ocupa ${texto.length + 1} dos ${INF_CPL_MAX}).` }],
    });
  }
  const approximateTax: NoteApproximateTax = { ...sum, texto };
  return { ...note, items, approximateTax };
}
