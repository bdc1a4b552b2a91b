import type { Icms } from '../types.js';
import { el, leaf, type XmlNode } from '../../xml/writer.js';
import { moneyOf, qty, rate } from './format.js';

/**
 * ICMS: N01, child of imposto (M01). One table says which tags each variant (N02-N10h) carries,
 * in XSD sequence order; one emitter writes them. A tag is written when the checked item has a
 * value for it: the rules (lib/nfe/rules/) guarantee that each optional sub-sequence of the
 * layout (FCP, FCP-ST, deson) arrives complete or absent, and a builder slip is caught by the
 * XSD check before anything is transmitted. Source: leiauteNFe_v4.00.xsd (PL_010 v1.30).
 *
 * Tags of the layout the API does not carry (vICMSOp/pDif of CST 51, retained ST of CST 60,
 * vICMSSTDeson) are left out of the rows on purpose.
 */
type Tag = keyof Icms;

const ST: readonly Tag[] = ['modBCST', 'pMVAST', 'pRedBCST', 'vBCST', 'pICMSST', 'vICMSST', 'vBCFCPST', 'pFCPST', 'vFCPST'];
const DESON: readonly Tag[] = ['vICMSDeson', 'motDesICMS', 'indDeduzDeson'];
const FCP: readonly Tag[] = ['vBCFCP', 'pFCP', 'vFCP'];
const OWN: readonly Tag[] = ['modBC', 'vBC', 'pICMS', 'vICMS'];

/** Group name → tags after orig and CST/CSOSN (N11/N12, N12a). */
export const ICMS_GROUPS = {
  ICMS00: [...OWN, 'pFCP', 'vFCP'],
  ICMS02: ['qBCMono', 'adRemICMS', 'vICMSMono'],
  ICMS10: [...OWN, ...FCP, ...ST],
  ICMS20: ['modBC', 'pRedBC', 'vBC', 'pICMS', 'vICMS', ...FCP, ...DESON],
  ICMS30: [...ST, ...DESON],
  ICMS40: DESON,
  ICMS51: ['modBC', 'pRedBC', 'vBC', 'pICMS', 'vICMS', ...FCP],
  ICMS60: [],
  ICMS61: ['qBCMonoRet', 'adRemICMSRet', 'vICMSMonoRet'],
  ICMS70: ['modBC', 'pRedBC', 'vBC', 'pICMS', 'vICMS', ...FCP, ...ST, ...DESON],
  ICMS90: ['modBC', 'vBC', 'pRedBC', 'pICMS', 'vICMS', ...FCP, ...ST, ...DESON],
  ICMSSN101: ['pCredSN', 'vCredICMSSN'],
  ICMSSN102: [],
  ICMSSN201: [...ST, 'pCredSN', 'vCredICMSSN'],
  ICMSSN202: ST,
  ICMSSN500: [],
  ICMSSN900: ['modBC', 'vBC', 'pRedBC', 'pICMS', 'vICMS', ...ST, 'pCredSN', 'vCredICMSSN'],
} as const satisfies Record<string, readonly Tag[]>;

export type IcmsGroup = keyof typeof ICMS_GROUPS;

/** CST (classic regime) and CSOSN (Simples Nacional) → layout group; several codes share one. */
export const GROUP_BY_CST: Readonly<Record<string, IcmsGroup>> = {
  '00': 'ICMS00', '02': 'ICMS02', '10': 'ICMS10', '20': 'ICMS20', '30': 'ICMS30',
  '40': 'ICMS40', '41': 'ICMS40', '50': 'ICMS40', '51': 'ICMS51', '60': 'ICMS60',
  '61': 'ICMS61', '70': 'ICMS70', '90': 'ICMS90',
};
export const GROUP_BY_CSOSN: Readonly<Record<string, IcmsGroup>> = {
  '101': 'ICMSSN101', '102': 'ICMSSN102', '103': 'ICMSSN102', '300': 'ICMSSN102', '400': 'ICMSSN102',
  '201': 'ICMSSN201', '202': 'ICMSSN202', '203': 'ICMSSN202', '500': 'ICMSSN500', '900': 'ICMSSN900',
};

/** Groups where modBC is mandatory: absent in the request means 3 (value of the operation). */
const MODBC_REQUIRED = new Set<IcmsGroup>(['ICMS00', 'ICMS10', 'ICMS20', 'ICMS51', 'ICMS70']);

const INTEGER_TAGS = new Set<Tag>(['modBC', 'modBCST', 'motDesICMS', 'indDeduzDeson']);
const QUANTITY_TAGS = new Set<Tag>(['qBCMono', 'qBCMonoRet']);

function format(tag: Tag, value: number): string {
  if (INTEGER_TAGS.has(tag)) return String(value);
  if (QUANTITY_TAGS.has(tag)) return qty(value);
  // v* are money; p* and adRem* are rates (TDec_0302a04).
  return tag.charCodeAt(0) === 118 /* v */ ? moneyOf(value) : rate(value);
}

/**
 * The API's classic names (aliquota, baseCalculo, valor) stand for the group's own tax: the SN
 * credit in CSOSN 101/201, the ICMS of the operation elsewhere (API.md, icms table).
 */
function valueOf(icms: Icms, tag: Tag, group: IcmsGroup): number | undefined {
  const v = icms[tag] as number | undefined;
  if (v !== undefined) return v;
  const credit = group === 'ICMSSN101' || group === 'ICMSSN201';
  switch (tag) {
    case 'vBC': return icms.baseCalculo;
    case 'pICMS': return credit ? undefined : icms.aliquota;
    case 'vICMS': return credit ? undefined : icms.valor;
    case 'pCredSN': return credit ? icms.aliquota : undefined;
    case 'vCredICMSSN': return credit ? icms.valor : undefined;
    case 'modBC': return MODBC_REQUIRED.has(group) ? 3 : undefined;
    default: return undefined;
  }
}

export function icmsGroupOf(icms: Icms): IcmsGroup {
  const group = icms.csosn !== undefined ? GROUP_BY_CSOSN[icms.csosn] : GROUP_BY_CST[icms.cst ?? ''];
  if (!group) throw new RangeError(`ICMS variant not supported by the builder: CST ${icms.cst} CSOSN ${icms.csosn}`);
  return group;
}

/** ICMS (N01) with its one variant group. */
export function buildIcms(icms: Icms): XmlNode {
  const group = icmsGroupOf(icms);
  const children: XmlNode[] = [
    leaf('orig', icms.origem),
    icms.csosn !== undefined ? leaf('CSOSN', icms.csosn) : leaf('CST', icms.cst!),
  ];
  for (const tag of ICMS_GROUPS[group] as readonly Tag[]) {
    const v = valueOf(icms, tag, group);
    if (v !== undefined) children.push(leaf(tag, format(tag, v)));
  }
  return el('ICMS', [el(group, children)]);
}
