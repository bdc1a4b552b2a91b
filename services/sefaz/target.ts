import type { Ambiente } from '../../lib/issuer/types.js';
import type { Model } from '../../lib/sefaz/endpoints.js';

/** Which authority a call goes to. */
export interface Target {
  uf: string;
  model: Model;
  ambiente: Ambiente;
  /** Override of the authority (issuer sefazUrl): a base URL, or a URL with a `{service}` placeholder. */
  endpointUrl?: string | null;
  /** Sandbox issuers always go to the simulator unless overridden. */
  sandbox?: boolean;
}

/** The breaker key of an authority: one circuit per UF, model and environment. */
export function authorityKey(t: Pick<Target, 'uf' | 'model' | 'ambiente'>): string {
  return `${t.uf}|${t.model}|${t.ambiente}`;
}
