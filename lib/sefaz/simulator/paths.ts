import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { isSefazService, type SefazService } from '../services.js';
import { UF_BY_SIGLA } from '../../nfe/access-key.js';

/**
 * Which authorizer a request addresses, from its URL path (issue 19, item 3). The real per-UF
 * paths of data/sefaz/nfe-endpoints.json (e.g. SP `/ws/nfestatusservico4.asmx`, SVRS
 * `/ws/NfeStatusServico/NfeStatusServico4.asmx`) are matched case-insensitively, so software whose
 * authority host names point at the simulator works with its own URLs unchanged. Where several
 * authorizers share a path (AN, SVAN and SVC-AN; production and homologation of one UF), the Host
 * header picks the one whose host it names; without such a Host, every authorizer of that path
 * stays a candidate and the message's cUF must belong to one of them.
 *
 * The simulator's own short paths stay as aliases: `/ws/<UF|SVRS|SVAN|AN…>/<Service>.asmx` (the
 * authorizer of that UF) and `/ws/<Service>.asmx` spelled exactly like the service (the UF is then
 * taken from the message, nothing is checked against the path). SP's NFC-e paths are spelled like
 * the latter: with an SP host in the Host header they are SP's, otherwise the alias.
 */
export interface PathTarget {
  service: SefazService;
  /** Authorizers (e.g. 'SP', 'SVRS', 'AN') the path may address; empty for the UF-less alias. */
  authorizers: string[];
  /** Model of the endpoint table the path came from, when the path tells it. */
  model: '55' | '65' | null;
}

interface Candidate { authority: string; model: '55' | '65'; host: string; service: SefazService }
interface EndpointFile {
  authorizers: Record<'55' | '65', Record<string, string>>;
  contingency: Record<'SVCAN' | 'SVCRS', string[]>;
  endpoints: Record<'55' | '65', Record<string, Record<string, Partial<Record<SefazService, string>>>>>;
}

const FILE = resolve(fileURLToPath(new URL('../../../data/sefaz/nfe-endpoints.json', import.meta.url)));
let loaded: { byPath: Map<string, Candidate[]>; table: EndpointFile } | null = null;

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const table = JSON.parse(readFileSync(FILE, 'utf8')) as EndpointFile;
  const byPath = new Map<string, Candidate[]>();
  for (const model of ['55', '65'] as const) {
    for (const [authority, envs] of Object.entries(table.endpoints[model] ?? {})) {
      for (const services of Object.values(envs)) {
        for (const [service, url] of Object.entries(services)) {
          if (!url || !isSefazService(service)) continue;
          const u = new URL(url);
          const key = u.pathname.toLowerCase();
          const list = byPath.get(key) ?? [];
          list.push({ authority, model, host: u.hostname.toLowerCase(), service });
          byPath.set(key, list);
        }
      }
    }
  }
  loaded = { byPath, table };
  return loaded;
}

const SVC = new Set(['SVCAN', 'SVCRS']);
const ALIAS = /^\/ws\/(?:([A-Za-z]{2,5})\/)?([A-Za-z0-9]+)\.asmx$/;
const SIGLAS = new Set([...Object.keys(UF_BY_SIGLA), 'AN', 'SVRS', 'SVAN', 'SVCAN', 'SVCRS']);

export function resolvePath(path: string, host: string | undefined): PathTarget | null {
  const candidates = load().byPath.get(path.toLowerCase()) ?? [];
  const hostname = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  const byHost = candidates.filter((c) => c.host === hostname);
  // A Host that names an authority of this path decides first: SP's NFC-e paths
  // (`/ws/NFeStatusServico4.asmx` at homologacao.nfce.fazenda.sp.gov.br) are spelled exactly like
  // the UF-less alias, and a client pointed at the simulator by host name must get SP's rules.
  if (byHost.length) return target(byHost);
  const alias = ALIAS.exec(path);
  // The UF-less alias, reached by the simulator's own address (no authority in the Host).
  if (alias && !alias[1] && isSefazService(alias[2]!)) return { service: alias[2], authorizers: [], model: null };
  if (alias && alias[1] && isSefazService(alias[2]!) && SIGLAS.has(alias[1].toUpperCase())) {
    return { service: alias[2], authorizers: [alias[1].toUpperCase()], model: null };
  }
  return candidates.length ? target(candidates) : null;
}

function target(matched: Candidate[]): PathTarget {
  // SVC-AN and SVC-RS answer at SVAN's and SVRS's own addresses: there the normal authorizer is meant.
  const normal = matched.filter((c) => !SVC.has(c.authority));
  const chosen = normal.length ? normal : matched;
  const models = new Set(chosen.map((c) => c.model));
  return {
    service: chosen[0]!.service,
    authorizers: [...new Set(chosen.map((c) => c.authority))],
    model: models.size === 1 ? chosen[0]!.model : null,
  };
}

/**
 * Whether a message of UF `cUF` (IBGE code) may be sent to one of `authorizers` (rule 226/289): the
 * UF's own authorizer or the shared one (SVRS, SVAN) that serves it for that model, SVC-* in
 * contingency, AN for cOrgao 91. An empty list (UF-less alias) accepts any UF.
 */
export function servesUf(authorizers: readonly string[], cUF: string, model: '55' | '65' | null): boolean {
  if (!authorizers.length) return true;
  const sigla = cUF === '91' ? 'AN' : Object.entries(UF_BY_SIGLA).find(([, code]) => code === cUF)?.[0];
  if (!sigla) return false;
  const t = load().table.authorizers;
  const models = model ? [model] : (['55', '65'] as const);
  return authorizers.some((a) => a === sigla
    || models.some((m) => t[m]?.[sigla] === a)
    || ((a === 'SVCAN' || a === 'SVCRS') && load().table.contingency[a].includes(sigla)));
}

/**
 * One pattern for the router: the aliases and every real path of the table (case-insensitive),
 * so routes other families add (the NFS-e simulator's) are never swallowed.
 */
export function soapPathPattern(): RegExp {
  const escaped = [...load().byPath.keys()].map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^(?:/ws/(?:[A-Za-z]{2,5}/)?[A-Za-z0-9]+\\.asmx|${escaped.join('|')})$`, 'i');
}
