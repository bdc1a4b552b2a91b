import { authorityFor } from '../../../lib/sefaz/endpoints.js';
import { UF_CODES } from '../../../lib/nfe/access-key.js';
import { cstatText } from '../../../lib/sefaz/cstat.js';
import { validateXml } from '../../../lib/xml/xsd.js';
import type { XmlDocument } from 'libxml2-wasm';
import type { SefazService } from '../../../lib/sefaz/services.js';
import type { SimulatorStore } from './store.js';
import type { SignatureChecker } from './signatures.js';
import type { RejectionLog } from './rejection-log.js';
import type { ReceivedMessage } from '../../../lib/sefaz/simulator/message.js';

/** What every simulated web service receives besides the message. */
export interface RequestInfo {
  /** CNPJ of the TLS client certificate. */
  clientCnpj: string | null;
  /** Authorizers the URL addresses (lib/sefaz/simulator/paths.ts); empty for the UF-less alias. */
  authorizers: string[];
  /** Model of the endpoint the URL names, when it tells. */
  model: '55' | '65' | null;
  now: Date;
}

/** A service: the message (parsed once, the server's to dispose) → the nfeResultMsg content. */
export type NfeHandler = (msg: ReceivedMessage, req: RequestInfo) => Promise<string>;

export interface HandlerDeps {
  store: SimulatorStore;
  signatures: SignatureChecker;
  rejections: RejectionLog;
}

/** The table's text, or null for a code it does not have (rejections on demand). */
export function tableText(cStat: number): string | null {
  try {
    return cstatText(cStat);
  } catch {
    return null;
  }
}

export const siglaOf = (cUF: string): string | null => UF_CODES[cUF] ?? null;

/** The authorizer that answers a message of `cUF` (nProt's first digit): the URL's, else the table's. */
export function authorizerOf(req: RequestInfo, cUF: string, model: string): string | null {
  if (req.authorizers.length === 1) return req.authorizers[0]!;
  const sigla = cUF === '91' ? 'AN' : siglaOf(cUF);
  if (!sigla) return null;
  try {
    return authorityFor(sigla, model === '65' ? '65' : '55');
  } catch {
    return sigla;
  }
}

/** Schema check; a failure is recorded with libxml2's messages (never put into xMotivo). */
export function schemaValid(deps: HandlerDeps, schema: string, payload: string | XmlDocument, service: SefazService, cStat: 215 | 225 | 493, now: Date): boolean {
  const xsd = validateXml(schema, payload);
  if (!xsd.valid) deps.rejections.record({ at: now.toISOString(), service, cStat, details: xsd.errors.slice(0, 10) });
  return xsd.valid;
}
