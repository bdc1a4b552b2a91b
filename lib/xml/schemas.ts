import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** Where the official schemas copied into the project live (see data/README.md). */
const ROOT = resolve(fileURLToPath(new URL('../../data/schemas', import.meta.url)));

export const NFE_SCHEMA_DIR = resolve(ROOT, 'nfe/PL_010_V1.30');
export const NFSE_SCHEMA_DIR = resolve(ROOT, 'nfse/1.01');

/** Entry points by message, NF-e 4.00 (schemas/README: "Entry points"). */
export const NFE_SCHEMAS = {
  nfe: resolve(NFE_SCHEMA_DIR, 'nfe_v4.00.xsd'),
  nfeProc: resolve(NFE_SCHEMA_DIR, 'procNFe_v4.00.xsd'),
  enviNFe: resolve(NFE_SCHEMA_DIR, 'enviNFe_v4.00.xsd'),
  retEnviNFe: resolve(NFE_SCHEMA_DIR, 'retEnviNFe_v4.00.xsd'),
  consReciNFe: resolve(NFE_SCHEMA_DIR, 'consReciNFe_v4.00.xsd'),
  retConsReciNFe: resolve(NFE_SCHEMA_DIR, 'retConsReciNFe_v4.00.xsd'),
  consSitNFe: resolve(NFE_SCHEMA_DIR, 'consSitNFe_v4.00.xsd'),
  retConsSitNFe: resolve(NFE_SCHEMA_DIR, 'retConsSitNFe_v4.00.xsd'),
  consStatServ: resolve(NFE_SCHEMA_DIR, 'consStatServ_v4.00.xsd'),
  retConsStatServ: resolve(NFE_SCHEMA_DIR, 'retConsStatServ_v4.00.xsd'),
  inutNFe: resolve(NFE_SCHEMA_DIR, 'inutNFe_v4.00.xsd'),
  retInutNFe: resolve(NFE_SCHEMA_DIR, 'retInutNFe_v4.00.xsd'),
  envEvento: resolve(NFE_SCHEMA_DIR, 'envEvento_v1.00.xsd'),
  envEventoCancNFe: resolve(NFE_SCHEMA_DIR, 'envEventoCancNFe_v1.00.xsd'),
  envCCe: resolve(NFE_SCHEMA_DIR, 'envCCe_v1.00.xsd'),
  retEnvEvento: resolve(NFE_SCHEMA_DIR, 'retEnvEvento_v1.00.xsd'),
  procEventoNFe: resolve(NFE_SCHEMA_DIR, 'procEventoNFe_v1.00.xsd'),
} as const;

export const NFSE_SCHEMAS = {
  dps: resolve(NFSE_SCHEMA_DIR, 'DPS_v1.01.xsd'),
  nfse: resolve(NFSE_SCHEMA_DIR, 'NFSe_v1.01.xsd'),
  pedRegEvento: resolve(NFSE_SCHEMA_DIR, 'pedRegEvento_v1.01.xsd'),
} as const;
