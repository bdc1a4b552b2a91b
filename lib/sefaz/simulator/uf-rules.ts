import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/**
 * Per-UF settings of the simulated authority, from data/sefaz/simulator-uf-rules.json (its
 * `source` names the rules): the cancellation deadline, whether a third party may transmit with its
 * own TLS certificate, whether infRespTec is required. A UF absent from the file follows `default`.
 */
export interface UfRules {
  cancelWindowHours: number;
  lateCancelUntilHours: number;
  thirdPartyTransmitter: boolean;
  infRespTecRequired: boolean;
}

/** `sources` cites, per UF, the rule each entry of `ufs` stands for (documentation only). */
interface UfRulesFile { default: UfRules; ufs: Record<string, Partial<UfRules>>; sources?: Record<string, string> }

const FILE = resolve(fileURLToPath(new URL('../../../data/sefaz/simulator-uf-rules.json', import.meta.url)));
let data: UfRulesFile | null = null;

export function ufRules(sigla: string | null): UfRules {
  data ??= JSON.parse(readFileSync(FILE, 'utf8')) as UfRulesFile;
  return { ...data.default, ...(sigla ? data.ufs[sigla] : undefined) };
}

/** Cancellation outcome by elapsed time since authorization (135, 155, 220 or 501). */
export function cancellationCStat(authorizedAt: Date, requestedAt: Date, rules: UfRules): 135 | 155 | 220 | 501 {
  const hours = (requestedAt.getTime() - authorizedAt.getTime()) / 3_600_000;
  if (hours <= rules.cancelWindowHours) return 135;
  if (hours <= rules.lateCancelUntilHours) return 155;
  // 501's text says "a mais de 7 dias": answered only when that is true; 220 before it.
  return hours > 168 ? 501 : 220;
}
