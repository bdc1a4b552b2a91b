import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Ambiente } from '../issuer/types.js';

/**
 * Where each Sefin Nacional call goes, from data/sefin/endpoints.json (base URLs of produção and
 * produção restrita with their sources, and the REST paths). Two hosts: Sefin itself (DPS, NFS-e,
 * events) and the ADN "parametrização" (municipal parameters, the convênio/adherence).
 */
export type SefinOperation = 'submit' | 'nfse' | 'dps' | 'eventos' | 'evento' | 'convenio';

export interface SefinBases {
  sefin: string;
  parametrizacao: string;
}

interface EndpointFile {
  ambientes: Record<'1' | '2', SefinBases & { name: string }>;
  paths: Record<SefinOperation, string>;
  simulator: { sefin: string; parametrizacao: string };
}

const FILE = fileURLToPath(new URL('../../data/sefin/endpoints.json', import.meta.url));
let table: EndpointFile | null = null;
function load(): EndpointFile {
  table ??= JSON.parse(readFileSync(FILE, 'utf8')) as EndpointFile;
  return table;
}

/** The real authority's hosts for an environment (1 produção, 2 produção restrita). */
export function authorityBases(ambiente: Ambiente): SefinBases {
  const a = load().ambientes[String(ambiente) as '1' | '2'];
  if (!a) throw new Error(`no Sefin endpoints for ambiente ${ambiente}`);
  return { sefin: a.sefin, parametrizacao: a.parametrizacao };
}

/** The same API under a simulator's (or any twin's) base URL: https://host:port + the prefixes. */
export function twinBases(baseUrl: string): SefinBases {
  const base = baseUrl.replace(/\/+$/, '');
  const s = load().simulator;
  return { sefin: base + s.sefin, parametrizacao: base + s.parametrizacao };
}

/** Path template of an operation, e.g. "/nfse/{chaveAcesso}". */
export function pathTemplate(op: SefinOperation): string {
  return load().paths[op];
}

/**
 * Full URL of an operation. Path parameters are validated by the callers (50-digit keys, DPS ids,
 * IBGE codes) and still encoded here, so nothing a caller passes can change the path's shape.
 */
export function sefinUrl(bases: SefinBases, op: SefinOperation, params: Record<string, string | number> = {}): string {
  const path = pathTemplate(op).replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`missing path parameter ${k} for ${op}`);
    return encodeURIComponent(String(v));
  });
  return (op === 'convenio' ? bases.parametrizacao : bases.sefin) + path;
}
