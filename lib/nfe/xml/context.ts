import type { Ambiente, IssuerSnapshot } from '../../issuer/types.js';

/**
 * Everything the XML builder needs that is not in the checked note: who issues, the number and
 * key already reserved, the clock reading and the environment. Supplied by the emission service;
 * the builder reads no clock, no env and no random source.
 */

/** Responsible technician (infRespTec, ZD01): the platform that wrote the software (NT 2018.005). */
export interface ResponsibleTechnician {
  /** CNPJ of the platform, 14 characters. */
  cnpj: string;
  /** Contact person (xContato), 2-60. */
  contato: string;
  email: string;
  /** Phone with area code, digits only, 6-14. */
  fone: string;
}

/**
 * tpEmis (B22): 1 normal; 6 SVC-AN and 7 SVC-RS (NF-e contingency); 9 NFC-e offline contingency.
 * Anything other than 1 carries dhCont/xJust.
 */
export type TpEmis = 1 | 6 | 7 | 9;

export interface Contingency {
  /** dhCont (B28): when contingency began, ISO with offset. */
  dhCont: string;
  /** xJust (B29): 15-256 characters, never truncated. */
  xJust: string;
}

export interface EmissionContext {
  issuer: IssuerSnapshot;
  numero: number;
  serie: number;
  /** Random code (B03), 8 digits, chosen by the caller (lib/nfe/access-key.ts chooseCnf). */
  cNF: string;
  /** The 44-character key built from these same fields (buildAccessKey). */
  accessKey: string;
  /** dhEmi (B09): ISO date-time with offset, e.g. 2026-11-22T17:40:00-03:00. */
  dhEmi: string;
  tpEmis: TpEmis;
  tpAmb: Ambiente;
  contingency?: Contingency;
  respTec: ResponsibleTechnician;
  /** Application version (verProc, B27), 1-20. */
  verProc: string;
}
