import { DomainError, type ErrorCode } from '../../errors/index.js';
import { formatCents } from '../../money.js';
import type { Crt } from '../../issuer/types.js';
import type { Icms, Model } from '../types.js';
import { cents, percentCents, withinOneCent } from './amounts.js';
import { checkCsosn } from './icms-csosn.js';
import { checkFcpBlocks, fieldsOf, fieldsOutside, OWN_REQUIRED, refuse, ST_REQUIRED, type IcmsGroup } from './icms-groups.js';
import { checkMonofasico, UNSUPPORTED_MONO_CST } from './icms-monofasico.js';

/**
 * ICMS by CST (API.md, icms rules 1-9), the accepted domain of this service, one row per CST:
 * which groups it may carry, whether own ICMS and ST are required ('always') or optional but
 * complete ('allOrNone'), and which code refuses it (ST CSTs → ICMS_ST_INVALIDO, benefit CSTs →
 * ICMS_BENEFICIO_INVALIDO, others → ICMS_INVALIDO).
 *
 * Supported: 00, 10, 20, 30, 40, 41, 50, 51, 60, 70, 90 and monofasic 02, 61. Not supported:
 * 15 and 53 (ICMS_MONOFASICO_NAO_SUPORTADO); any other value, the ST-retained fields of CST 60,
 * deferral fields of CST 51, ICMSPart and ICMSST repasse (ICMS_INVALIDO / unknown-field 400).
 * NFC-e accepts 00, 20, 40, 41, 60, 61 and 90 (no ST: 10, 30, 70 and ST fields in 90 refuse
 * ICMS_ST_NAO_SUPORTADO).
 * CST is for crt 2 and 3; Simples issuers (crt 1, 4) use csosn, except the monofasic 02 and 61.
 */
type Family = 'plain' | 'st' | 'benefit' | 'mono';
interface CstRow {
  family: Family;
  groups: readonly IcmsGroup[];
  own?: 'always' | 'allOrNone';
  reductionRequired?: boolean;
  st?: 'always' | 'allOrNone';
  nfce: boolean;
}

export const CST_TABLE: Readonly<Record<string, CstRow>> = {
  '00': { family: 'plain', groups: ['own', 'fcp'], own: 'always', nfce: true },
  '10': { family: 'st', groups: ['own', 'fcp', 'st', 'fcpSt'], own: 'always', st: 'always', nfce: false },
  '20': { family: 'benefit', groups: ['own', 'reduction', 'fcp', 'deson'], own: 'always', reductionRequired: true, nfce: true },
  '30': { family: 'st', groups: ['st', 'fcpSt', 'deson'], st: 'always', nfce: false },
  '40': { family: 'plain', groups: ['deson'], nfce: true },
  '41': { family: 'plain', groups: ['deson'], nfce: true },
  '50': { family: 'plain', groups: ['deson'], nfce: false },
  '51': { family: 'benefit', groups: ['own', 'reduction', 'fcp'], own: 'allOrNone', nfce: false },
  '60': { family: 'plain', groups: [], nfce: true },
  '70': { family: 'st', groups: ['own', 'reduction', 'fcp', 'st', 'fcpSt', 'deson'], own: 'always', reductionRequired: true, st: 'always', nfce: false },
  '90': { family: 'benefit', groups: ['own', 'reduction', 'fcp', 'st', 'fcpSt', 'deson'], own: 'allOrNone', st: 'allOrNone', nfce: true },
  '02': { family: 'mono', groups: ['mono'], nfce: false },
  '61': { family: 'mono', groups: ['monoRet'], nfce: true },
};

const CODE: Readonly<Record<Family, ErrorCode>> = {
  plain: 'ICMS_INVALIDO', st: 'ICMS_ST_INVALIDO', benefit: 'ICMS_BENEFICIO_INVALIDO', mono: 'ICMS_INVALIDO',
};

export interface IcmsContext {
  crt: Crt;
  model: Model;
  cfop: string;
}

/**
 * Checks one item's ICMS and returns it normalized for the XML builder: classic names of CST 00
 * (`baseCalculo`, `aliquota`, `valor`) become `vBC`, `pICMS`, `vICMS`, and `modBC` defaults to 3
 * (operation value) wherever own ICMS is informed.
 */
export function checkIcms(icms: Icms, item: number, ctx: IcmsContext): Icms {
  const legacy = fieldsOf(icms, 'legacySt');
  if (legacy.length) refuse('ICMS_ST_NAO_SUPORTADO', item, legacy, 'use modBCST, vBCST, pICMSST e vICMSST');
  checkFcpBlocks(icms, item);
  if (icms.csosn !== undefined) return checkCsosn(icms, item, ctx);
  if (icms.cst === undefined) {
    refuse('ICMS_INVALIDO', item, ['cst', 'csosn'], ctx.crt === 1 || ctx.crt === 4 ? 'informe csosn (Simples Nacional)' : 'informe cst');
  }
  const cst = icms.cst;
  if (UNSUPPORTED_MONO_CST.has(cst)) refuse('ICMS_MONOFASICO_NAO_SUPORTADO', item, ['cst'], `CST ${cst} não suportado; monofásico aceito: 02 e 61`);
  const row = CST_TABLE[cst];
  if (!row) refuse('ICMS_INVALIDO', item, ['cst'], `CST ${cst} não suportado; aceitos: ${Object.keys(CST_TABLE).join(', ')}`);
  if ((ctx.crt === 1 || ctx.crt === 4) && row.family !== 'mono') {
    refuse('ICMS_INVALIDO', item, ['cst'], `emissor do Simples Nacional (crt ${ctx.crt}) informa csosn; cst só para monofásico (02, 61)`);
  }
  if (ctx.model === '65') checkNfceCst(icms, item, cst, row);
  if (row.family === 'mono') {
    const extra = fieldsOutside(icms, row.groups);
    if (extra.length) refuse('ICMS_INVALIDO', item, extra, `CST ${cst} não aceita estes campos`);
    checkMonofasico(icms, item, cst as '02' | '61', ctx.model);
    return icms;
  }
  const normalized = { ...normalizeClassicNames(icms, item, cst, row) };
  const extra = fieldsOutside(normalized, row.groups);
  if (extra.length) refuse(CODE[row.family], item, extra, `CST ${cst} não aceita estes campos`);
  checkOwnIcms(normalized, item, cst, row);
  checkSt(normalized, item, cst, row);
  const deson = fieldsOf(normalized, 'deson');
  if (deson.length && (normalized.vICMSDeson === undefined || normalized.motDesICMS === undefined)) {
    refuse('ICMS_BENEFICIO_INVALIDO', item, ['vICMSDeson', 'motDesICMS'], 'informe vICMSDeson e motDesICMS juntos');
  }
  return normalized;
}

function checkNfceCst(icms: Icms, item: number, cst: string, row: CstRow): void {
  if (row.st === 'always') refuse('ICMS_ST_NAO_SUPORTADO', item, ['cst'], `NFC-e não aceita ICMS ST (CST ${cst})`);
  const st = [...fieldsOf(icms, 'st'), ...fieldsOf(icms, 'fcpSt')];
  if (st.length) refuse('ICMS_ST_NAO_SUPORTADO', item, st, 'NFC-e não aceita campos de ICMS ST');
  if (cst === '02') refuse('ICMS_MONOFASICO_NAO_SUPORTADO', item, ['cst'], 'NFC-e aceita apenas o monofásico cobrado anteriormente (CST 61)');
  if (!row.nfce) refuse('ICMS_INVALIDO', item, ['cst'], `CST ${cst} não aceito em NFC-e; aceitos: ${Object.keys(CST_TABLE).filter((c) => CST_TABLE[c]!.nfce).join(', ')}`);
}

/** API.md, icms rule 1: classic names are accepted with CST 00 and refused with 10, 20, 51, 70, 90. */
function normalizeClassicNames(icms: Icms, item: number, cst: string, row: CstRow): Icms {
  const classic = fieldsOf(icms, 'classic');
  if (!classic.length) return icms;
  if (cst !== '00') refuse(CODE[row.family], item, classic, `CST ${cst} usa vBC, pICMS e vICMS; baseCalculo, aliquota e valor não são aceitos`);
  const layout = fieldsOf(icms, 'own').filter((f) => f !== 'modBC');
  if (layout.length) refuse('ICMS_INVALIDO', item, [...classic, ...layout], 'use os nomes clássicos (baseCalculo, aliquota, valor) ou os do leiaute (vBC, pICMS, vICMS), não ambos');
  const { baseCalculo, aliquota, valor, ...rest } = icms;
  return { ...rest, vBC: baseCalculo, pICMS: aliquota, vICMS: valor };
}

function checkOwnIcms(icms: Icms, item: number, cst: string, row: CstRow): void {
  const code = CODE[row.family];
  const present = OWN_REQUIRED.filter((f) => icms[f] !== undefined);
  if (row.own === 'always' || (row.own === 'allOrNone' && (present.length > 0 || icms.modBC !== undefined || icms.pRedBC !== undefined))) {
    const missing = OWN_REQUIRED.filter((f) => icms[f] === undefined);
    if (missing.length) refuse(code, item, missing, `CST ${cst} exige vBC, pICMS e vICMS`);
  }
  if (row.reductionRequired && icms.pRedBC === undefined) refuse(code, item, ['pRedBC'], `CST ${cst} exige pRedBC`);
  if (icms.vBC === undefined) return;
  icms.modBC ??= 3;
  // vBC is passthrough, already reduced by pRedBC; only the product is checked (rule 1).
  const expected = percentCents(cents(icms.vBC), icms.pICMS!);
  if (!withinOneCent(expected, cents(icms.vICMS))) {
    throw new DomainError(code, {
      item, campos: [`items[${item}].icms.vICMS`], motivo: 'vICMS deve ser vBC × pICMS (tolerância 0,01)', esperado: formatCents(expected), recebido: formatCents(cents(icms.vICMS)),
    });
  }
}

/** API.md, icms rule 3: ST charged here needs modBCST, vBCST, pICMSST, vICMSST (value not recomputed). */
function checkSt(icms: Icms, item: number, cst: string, row: CstRow): void {
  const anySt = fieldsOf(icms, 'st').length > 0 || fieldsOf(icms, 'fcpSt').length > 0;
  if (row.st === 'always' || (row.st === 'allOrNone' && anySt)) {
    const missing = ST_REQUIRED.filter((f) => icms[f] === undefined);
    if (missing.length) refuse('ICMS_ST_INCOMPLETO', item, missing, `CST ${cst} com ST exige ${ST_REQUIRED.join(', ')}`);
  }
}
