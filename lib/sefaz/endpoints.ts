import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { SERVICES, type SefazService } from './services.js';
import type { Ambiente } from '../issuer/types.js';

/**
 * Authority endpoints per UF, model and environment, from the sped-nfe tables copied into data/sefaz
 * (wsnfe_4.00_mod55.xml / mod65.xml: one `<UF>` block per authority, SVRS/SVAN/SVCAN/SVCRS included)
 * and autorizadores.json (which authority serves each UF, per model). Loaded once.
 *
 * Contingency (SVC): NF-e only. By the MOC 4.00 §2.2 table, SVC-AN serves AC, AL, AP, CE, DF, ES, MG,
 * PA, PB, PI, RJ, RN, RO, RR, RS, SC, SE, SP, TO; SVC-RS serves AM, BA, GO, MA, MS, MT, PE, PR.
 */
export type Model = '55' | '65';
export type Contingency = 'SVC-AN' | 'SVC-RS';

export interface EndpointQuery {
  uf: string;
  model: Model;
  ambiente: Ambiente;
  service: SefazService;
  /** Use the virtual contingency authority of this UF instead of its normal one. */
  contingency?: boolean;
}

export interface Endpoint {
  url: string;
  /** The authority that answers (e.g. 'SP', 'SVRS', 'SVCAN'). */
  authority: string;
  service: SefazService;
}

type Table = Map<string, Map<string, string>>; // authority|env → tag → url

const DATA = resolve(fileURLToPath(new URL('../../data/sefaz', import.meta.url)));
const SVC_RS_UFS = new Set(['AM', 'BA', 'GO', 'MA', 'MS', 'MT', 'PE', 'PR']);
let cache: { tables: Record<Model, Table>; authorizers: Record<Model, Record<string, string>> } | null = null;

function loadTable(file: string): Table {
  const doc = new DOMParser().parseFromString(readFileSync(resolve(DATA, file), 'utf8'), 'text/xml');
  const table: Table = new Map();
  const ufs = doc.getElementsByTagName('UF');
  for (let i = 0; i < ufs.length; i++) {
    const uf = ufs[i]!;
    const sigla = uf.getElementsByTagName('sigla')[0]?.textContent?.trim();
    if (!sigla) continue;
    for (const env of ['homologacao', 'producao']) {
      const block = uf.getElementsByTagName(env)[0];
      if (!block) continue;
      const services = new Map<string, string>();
      for (let n = block.firstChild; n; n = n.nextSibling) {
        if (n.nodeType !== 1) continue;
        const url = (n.textContent ?? '').trim();
        if (url) services.set((n as Element).tagName, url);
      }
      table.set(`${sigla}|${env}`, services);
    }
  }
  return table;
}

function data() {
  if (!cache) {
    cache = {
      tables: { '55': loadTable('wsnfe_4.00_mod55.xml'), '65': loadTable('wsnfe_4.00_mod65.xml') },
      authorizers: JSON.parse(readFileSync(resolve(DATA, 'autorizadores.json'), 'utf8')),
    };
  }
  return cache;
}

/** The authority that serves `uf` for `model` (SVRS, SVAN or the UF itself). */
export function authorityFor(uf: string, model: Model, contingency = false): string {
  if (contingency) {
    if (model !== '55') throw new Error('SVC contingency exists only for NF-e (model 55)');
    return SVC_RS_UFS.has(uf) ? 'SVCRS' : 'SVCAN';
  }
  const authority = data().authorizers[model]?.[uf];
  if (!authority) throw new Error(`no authority for UF ${uf} model ${model}`);
  return authority;
}

/** URL of `service` for this UF/model/environment; throws when the table has none. */
export function endpointFor(q: EndpointQuery): Endpoint {
  const authority = authorityFor(q.uf, q.model, q.contingency);
  const env = q.ambiente === 1 ? 'producao' : 'homologacao';
  const services = data().tables[q.model].get(`${authority}|${env}`);
  const url = services?.get(SERVICES[q.service].tag);
  if (!url) throw new Error(`no ${q.service} endpoint for ${authority} (UF ${q.uf}, model ${q.model}, ${env})`);
  return { url, authority, service: q.service };
}
