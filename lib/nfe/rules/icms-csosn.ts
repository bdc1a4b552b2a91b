import type { Crt } from '../../issuer/types.js';
import type { Icms, Model } from '../types.js';
import { fieldsOf, fieldsOutside, refuse, ST_REQUIRED } from './icms-groups.js';

/**
 * CSOSN domain (API.md, icms rule 6), the decision of this service:
 * - NF-e, crt 1 (Simples Nacional): 102, 103, 300, 400, 201, 202, 203.
 * - NF-e, crt 4 (MEI): 102, 300, 400. The MEI pays ICMS in the fixed DAS amount, so neither the
 *   revenue-range exemption (103) nor ST charged by the MEI (201-203) applies.
 * - NFC-e: the same without the ST CSOSN (201, 202, 203).
 * - 500 and 900, 101 and anything else: 422 CSOSN_NAO_SUPORTADO.
 * CSOSN is for crt 1 and 4 only (crt 2 and 3 use CST, MOC rejections 590/591).
 */
export const CSOSN_DOMAIN: Readonly<Record<Model, Readonly<Partial<Record<Crt, readonly string[]>>>>> = {
  '55': { 1: ['102', '103', '300', '400', '201', '202', '203'], 4: ['102', '300', '400'] },
  '65': { 1: ['102', '103', '300', '400'], 4: ['102', '300', '400'] },
};

const NO_VALUES = new Set(['102', '103', '300', '400']);
const WITH_ST = new Set(['201', '202', '203']);

/** MEI with CSOSN 102: only these CFOP (API.md, icms rule 8). */
const MEI_102_CFOP: Readonly<Record<Model, readonly string[]>> = { '55': ['5102', '6102'], '65': ['5102'] };

export function checkCsosn(icms: Icms, item: number, ctx: { crt: Crt; model: Model; cfop: string }): Icms {
  const csosn = icms.csosn!;
  if (ctx.crt !== 1 && ctx.crt !== 4) {
    refuse('ICMS_INVALIDO', item, ['csosn'], `csosn é só para emissor do Simples Nacional (crt 1) ou MEI (crt 4); crt ${ctx.crt} usa cst`);
  }
  const domain = CSOSN_DOMAIN[ctx.model][ctx.crt] ?? [];
  if (!domain.includes(csosn)) {
    refuse('CSOSN_NAO_SUPORTADO', item, ['csosn'], `csosn ${csosn} não suportado para crt ${ctx.crt} em ${ctx.model === '55' ? 'NF-e' : 'NFC-e'}; aceitos: ${domain.join(', ')}`);
  }
  if (icms.cst !== undefined) {
    refuse(WITH_ST.has(csosn) ? 'ICMS_ST_INVALIDO' : 'ICMS_INVALIDO', item, ['cst'], 'informe cst ou csosn, não ambos');
  }
  if (NO_VALUES.has(csosn)) {
    const extra = fieldsOutside(icms, []);
    if (extra.length) refuse('CSOSN_VALORES_NAO_SUPORTADOS', item, extra, `csosn ${csosn} não destaca ICMS: não informe alíquota, base ou valor`);
    if (ctx.crt === 4 && csosn === '102' && !MEI_102_CFOP[ctx.model].includes(ctx.cfop)) {
      refuse('CSOSN_CFOP_MEI_INCOMPATIVEL', item, [], `MEI com csosn 102 exige CFOP ${MEI_102_CFOP[ctx.model].join(' ou ')}`, { campo: `items[${item}].cfop`, cfop: ctx.cfop });
    }
    return icms;
  }
  // 201, 202, 203: ST charged in this operation, no own ICMS (API.md, icms rules 3 and 5).
  const extra = fieldsOutside(icms, ['st', 'fcpSt', 'credit']);
  if (extra.length) refuse('ICMS_ST_INVALIDO', item, extra, `csosn ${csosn} não aceita ICMS próprio nem estes campos`);
  const missingSt = ST_REQUIRED.filter((f) => icms[f] === undefined);
  if (missingSt.length) refuse('ICMS_ST_INCOMPLETO', item, missingSt, `csosn ${csosn} exige ${ST_REQUIRED.join(', ')}`);
  const credit = fieldsOf(icms, 'credit');
  if (csosn === '201' && credit.length < 2) {
    refuse('ICMS_ST_INCOMPLETO', item, ['pCredSN', 'vCredICMSSN'].filter((f) => !credit.includes(f)), 'csosn 201 exige o crédito pCredSN e vCredICMSSN');
  }
  if (csosn !== '201' && credit.length) refuse('ICMS_ST_INVALIDO', item, credit, `csosn ${csosn} não permite crédito do Simples Nacional`);
  return icms;
}
