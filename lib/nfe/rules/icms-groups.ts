import { DomainError, type ErrorCode } from '../../errors/index.js';
import type { Icms } from '../types.js';
import { presentFields } from './amounts.js';

/** ICMS field groups of the layout (MOC 4.00, N01-N12a; NT 2023.001 monofasic). */
export const ICMS_GROUPS = {
  own: ['modBC', 'vBC', 'pICMS', 'vICMS'],
  classic: ['baseCalculo', 'aliquota', 'valor'],
  reduction: ['pRedBC'],
  fcp: ['vBCFCP', 'pFCP', 'vFCP'],
  st: ['modBCST', 'pMVAST', 'pRedBCST', 'vBCST', 'pICMSST', 'vICMSST'],
  fcpSt: ['vBCFCPST', 'pFCPST', 'vFCPST'],
  deson: ['vICMSDeson', 'motDesICMS', 'indDeduzDeson'],
  mono: ['qBCMono', 'adRemICMS', 'vICMSMono'],
  monoRet: ['qBCMonoRet', 'adRemICMSRet', 'vICMSMonoRet'],
  credit: ['pCredSN', 'vCredICMSSN'],
  legacySt: ['baseCalculoST', 'aliquotaST', 'valorST'],
} as const satisfies Record<string, readonly (keyof Icms | 'baseCalculoST' | 'aliquotaST' | 'valorST')[]>;

export type IcmsGroup = keyof typeof ICMS_GROUPS;

/** ST fields that must all be present when ST is charged (API.md, icms rule 3). */
export const ST_REQUIRED = ['modBCST', 'vBCST', 'pICMSST', 'vICMSST'] as const;
export const OWN_REQUIRED = ['vBC', 'pICMS', 'vICMS'] as const;

export function fieldsOf(icms: Icms, group: IcmsGroup): string[] {
  return presentFields(icms as unknown as Record<string, unknown>, ICMS_GROUPS[group] as readonly string[]);
}

export function refuse(code: ErrorCode, item: number, campos: string[], motivo: string, extra: Record<string, unknown> = {}): never {
  throw new DomainError(code, { item, campos: campos.map((c) => `items[${item}].icms.${c}`), motivo, ...extra });
}

const allowedSets = new Map<string, ReadonlySet<string>>();

/** Fields present outside the allowed groups (origem, cst and csosn are always allowed). */
export function fieldsOutside(icms: Icms, allowed: readonly IcmsGroup[]): string[] {
  const key = allowed.join();
  let ok = allowedSets.get(key);
  if (!ok) {
    ok = new Set<string>(['origem', 'cst', 'csosn', ...allowed.flatMap((g) => ICMS_GROUPS[g] as readonly string[])]);
    allowedSets.set(key, ok);
  }
  const fields = icms as unknown as Record<string, unknown>;
  const outside: string[] = [];
  for (const k in fields) if (fields[k] !== undefined && !ok.has(k)) outside.push(k);
  return outside;
}

/** API.md, icms rule 2: the FCP blocks are indivisible. */
export function checkFcpBlocks(icms: Icms, item: number): void {
  for (const group of ['fcp', 'fcpSt'] as const) {
    const present = fieldsOf(icms, group);
    if (present.length > 0 && present.length < ICMS_GROUPS[group].length) {
      const missing = (ICMS_GROUPS[group] as readonly string[]).filter((f) => !present.includes(f));
      throw new DomainError('FCP_INCOMPLETO', { item, campos: missing.map((c) => `items[${item}].icms.${c}`), motivo: `informe ${ICMS_GROUPS[group].join(', ')} juntos` });
    }
  }
}
