import { DomainError, type ErrorCode } from '../../errors/index.js';
import { formatCents, percentOf, toScaled, type Scaled } from '../../money.js';
import { interstateRate, rateText, ufRates } from '../difal-rates.js';
import type { Destinatario, IcmsUfDest, Item, Model, ResolvedIcmsUfDest } from '../types.js';
import { cents, scaled, withinOneCent } from './amounts.js';
import { ipiCents } from './pis-cofins-ipi.js';

/**
 * The ICMS partilha to the destination UF (EC 87/2015; group ICMSUFDest of NT 2015.003, MOC 4.00
 * NA01-NA17), before any number is allocated.
 *
 * - It applies to an NF-e that is interstate (idDest 2) to a final consumer (indFinal 1) who is not
 *   a contributor (indIEDest 9): every item then carries the group (the authority's rule NA01-20,
 *   rejection 694). Sent anywhere else it refuses ICMS_UF_DEST_INDEVIDO, the meaning of rejection
 *   695 "Informado indevidamente o grupo de ICMS para a UF de destino" (data/sefaz/cstat.json).
 * - What the item omits is computed: pICMSUFDest and pFCPUFDest from the destination UF's row of
 *   data/icms/aliquotas-internas-uf.json, pICMSInter 4/7/12 % (lib/nfe/difal-rates.ts),
 *   pICMSInterPart 100 % (the destination's whole share since 2019, ADCT art. 99 V; rejection 699),
 *   vBCUFDest = the item's operation value (vProd − vDesc + vFrete + vSeg + vOutro + vIPI; 0 for
 *   exempt, immune and not taxed items),
 *   vICMSUFDest = vBCUFDest × (pICMSUFDest − pICMSInter) ("base única", data/icms/README.md),
 *   vFCPUFDest = vBCFCPUFDest × pFCPUFDest, vICMSUFRemet = 0. Each value is rounded half away
 *   from zero to the cent, from exact integers.
 * - What the item sends is kept and checked: pICMSInter must be the operation's (rejections
 *   697/698), pICMSInterPart 100, vICMSUFRemet 0, and each value within one cent of the one its
 *   rates give (vICMSUFDest may also follow the "base dupla" of a UF that requires it:
 *   vBCUFDest × pICMSUFDest − operation value × pICMSInter). Anything else refuses
 *   ICMS_UF_DEST_INVALIDO naming the field, the expected and the received value.
 */
export interface PartilhaContext {
  model: Model;
  idDest: 1 | 2 | 3;
  indFinal: 0 | 1;
  /** The issuer's UF (origin of the goods). */
  originUf: string;
  /** NF-e recipient (absent in an NFC-e without consumer). */
  destinatario?: Pick<Destinatario, 'indicadorIE'> & { endereco?: { uf: string } };
}

/** True when the operation requires ICMSUFDest on every item (NT 2015.003, rule NA01-20). */
export function partilhaApplies(ctx: PartilhaContext): boolean {
  return ctx.model === '55' && ctx.idDest === 2 && ctx.indFinal === 1 && ctx.destinatario?.indicadorIE === 9;
}

const PERCENT_100 = toScaled(100, 4);
/**
 * Exempt (CST 40, CSOSN 103), immune (CSOSN 300) and not taxed (CST 41, CSOSN 400) items owe no
 * partilha: NT 2015.003 v1.80 lifted rule NA01-20 for them. The group is still written, with base
 * 0, because an authority that keeps the older rule (this project's simulator does) rejects 694.
 */
const NO_PARTILHA_CST: ReadonlySet<string> = new Set(['40', '41']);
const NO_PARTILHA_CSOSN: ReadonlySet<string> = new Set(['103', '300', '400']);
const INTER_RULE = '4% para importados (origem 1, 2, 3 ou 8); 7% de SP, RJ, MG, PR, RS ou SC para N, NE, CO ou ES; 12% nos demais casos';

function refuse(code: ErrorCode, item: number, field: string, details: Record<string, unknown>): never {
  throw new DomainError(code, { item, campos: [`items[${item}].icmsUfDest${field ? `.${field}` : ''}`], ...details });
}

/** A sent value must be within one cent of the expected one (the authority's tolerance, rules/amounts.ts). */
function checked(sent: number | undefined, expected: Scaled, item: number, field: keyof IcmsUfDest, motivo: string): Scaled {
  if (sent === undefined) return expected;
  const received = cents(sent);
  if (!withinOneCent(received, expected)) {
    refuse('ICMS_UF_DEST_INVALIDO', item, field, { esperado: formatCents(expected), recebido: formatCents(received), motivo });
  }
  return received;
}

/** vProd − vDesc + vFrete + vSeg + vOutro + vIPI of one item: the ICMS base for a final consumer. */
export function operationValueCents(item: Item, valorTotalCents: bigint): bigint {
  return valorTotalCents - cents(item.desconto) + cents(item.valorFrete) + cents(item.valorSeguro) + cents(item.outrasDespesas) + ipiCents(item.ipi);
}

export function resolveIcmsUfDest(item: Item, index: number, valorTotalCents: bigint, ctx: PartilhaContext): ResolvedIcmsUfDest | undefined {
  const sent = item.icmsUfDest;
  if (!partilhaApplies(ctx)) {
    if (!sent) return undefined;
    refuse('ICMS_UF_DEST_INDEVIDO', index, '', {
      modelo: ctx.model, idDest: ctx.idDest, indFinal: ctx.indFinal,
      ...(ctx.destinatario ? { indicadorIE: ctx.destinatario.indicadorIE } : {}),
      motivo: 'a partilha (EC 87/2015) só se aplica à NF-e interestadual para consumidor final não contribuinte; retire o grupo',
    });
  }
  // The destination is the recipient's UF. Where the goods enter another UF, that UF is the
  // destination (Ajuste SINIEF 18/2022, § 30, as NT 2022.005 quotes it): the delivery place (entrega) is
  // not in this API (field-hints.ts), so no note can name one yet.
  const destUf = ctx.destinatario?.endereco?.uf ?? '';
  const dest = ufRates(destUf);
  if (!dest) refuse('ICMS_UF_DEST_INVALIDO', index, '', { uf: destUf, motivo: 'UF de destino sem alíquota interna conhecida' });
  const g: IcmsUfDest = sent ?? {};

  const pICMSInter = interstateRate(ctx.originUf, dest, item.icms.origem);
  if (g.pICMSInter !== undefined && rateText(scaled(g.pICMSInter, 4)) !== pICMSInter) {
    refuse('ICMS_UF_DEST_INVALIDO', index, 'pICMSInter', { esperado: pICMSInter, recebido: rateText(scaled(g.pICMSInter, 4)), origem: item.icms.origem, ufOrigem: ctx.originUf, ufDestino: dest.uf, motivo: INTER_RULE });
  }
  if (g.pICMSInterPart !== undefined && scaled(g.pICMSInterPart, 4) !== PERCENT_100) {
    refuse('ICMS_UF_DEST_INVALIDO', index, 'pICMSInterPart', { esperado: '100.00', recebido: rateText(scaled(g.pICMSInterPart, 4)), motivo: 'desde 2019 a partilha é 100% da UF de destino (EC 87/2015)' });
  }
  const vICMSUFRemet = checked(g.vICMSUFRemet, 0n, index, 'vICMSUFRemet', 'desde 2019 a UF do remetente não tem parcela da partilha');

  const pDest = g.pICMSUFDest !== undefined ? scaled(g.pICMSUFDest, 4) : dest.pICMS;
  const pFcp = g.pFCPUFDest !== undefined ? scaled(g.pFCPUFDest, 4) : dest.pFCP;
  const pInter = toScaled(Number(pICMSInter), 4);
  const operation = operationValueCents(item, valorTotalCents);
  const exempt = NO_PARTILHA_CST.has(item.icms.cst ?? '') || NO_PARTILHA_CSOSN.has(item.icms.csosn ?? '');
  const vBCUFDest = g.vBCUFDest !== undefined ? cents(g.vBCUFDest) : exempt ? 0n : operation;
  const vBCFCPUFDest = g.vBCFCPUFDest !== undefined ? cents(g.vBCFCPUFDest) : vBCUFDest;

  const single = percentOf(vBCUFDest, pDest > pInter ? pDest - pInter : 0n, 4);
  let vICMSUFDest = single;
  if (g.vICMSUFDest !== undefined) {
    const received = cents(g.vICMSUFDest);
    const double = percentOf(vBCUFDest, pDest, 4) - percentOf(operation, pInter, 4);
    if (!withinOneCent(received, single) && !withinOneCent(received, double)) {
      refuse('ICMS_UF_DEST_INVALIDO', index, 'vICMSUFDest', {
        esperado: formatCents(single), recebido: formatCents(received),
        motivo: `vBCUFDest × (pICMSUFDest − pICMSInter) = ${formatCents(vBCUFDest)} × (${rateText(pDest)}% − ${pICMSInter}%)`,
      });
    }
    vICMSUFDest = received;
  }
  const vFCPUFDest = checked(g.vFCPUFDest, percentOf(vBCFCPUFDest, pFcp, 4), index, 'vFCPUFDest',
    `vBCFCPUFDest × pFCPUFDest = ${formatCents(vBCFCPUFDest)} × ${rateText(pFcp)}%`);

  return {
    vBCUFDest,
    ...(pFcp > 0n || [g.vBCFCPUFDest, g.pFCPUFDest, g.vFCPUFDest].some((v) => v !== undefined) ? { fcp: { vBCFCPUFDest, pFCPUFDest: rateText(pFcp), vFCPUFDest } } : {}),
    pICMSUFDest: rateText(pDest),
    pICMSInter,
    pICMSInterPart: '100.00',
    vICMSUFDest,
    vICMSUFRemet,
  };
}
