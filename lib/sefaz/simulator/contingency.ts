import type { NfeFacts } from './facts.js';

/**
 * The emission type (tpEmis) against the model and the authorizer addressed, and the entry into
 * contingency (MOC 4.00 Anexo I, group B "Identificação da NF-e", and NT 2013.005 for NFC-e),
 * with the codes of data/sefaz/cstat.json:
 * - 783 an NFC-e sent to a virtual contingency authorizer (SVC serves NF-e only);
 * - 713 at SVC-AN a tpEmis other than 6, at SVC-RS other than 7;
 * - 570 tpEmis 3, 6 or 7 (SCAN/SVC) sent to an authorizer that is not an SVC;
 * - 711 tpEmis 9 (offline contingency) on an NF-e: it exists only for NFC-e;
 * - 556 dhCont/xJust on a normal emission, 557 a contingency emission without them,
 *   558 dhCont after the reception (the same 5 minutes of clock tolerance as rule 703).
 * The authorizer checks need to know it: under the UF-less alias (`svc` undefined) they are skipped.
 */
export type ContingencyCStat = 556 | 557 | 558 | 570 | 711 | 713 | 783;

const SVC_TP_EMIS: Record<'SVCAN' | 'SVCRS', string> = { SVCAN: '6', SVCRS: '7' };

export function contingencyCStat(
  f: Pick<NfeFacts, 'mod' | 'tpEmis' | 'dhCont' | 'xJust'>,
  /** The SVC the path addresses, null for a normal authorizer, undefined when the path does not tell. */
  svc: 'SVCAN' | 'SVCRS' | null | undefined,
  now: Date,
): ContingencyCStat | null {
  if (svc) {
    if (f.mod === '65') return 783;
    if (f.tpEmis !== SVC_TP_EMIS[svc]) return 713;
  } else if (svc === null && ['3', '6', '7'].includes(f.tpEmis)) {
    return 570;
  }
  if (f.tpEmis === '9' && f.mod !== '65') return 711;
  if (f.tpEmis === '1') return f.dhCont || f.xJust ? 556 : null;
  if (!f.xJust || !f.dhCont) return 557;
  const entered = Date.parse(f.dhCont);
  if (!Number.isNaN(entered) && entered > now.getTime() + 5 * 60_000) return 558;
  return null;
}

/** The SVC a path's authorizers name (only when that is all they name), null for others, undefined for none. */
export function svcOf(authorizers: readonly string[]): 'SVCAN' | 'SVCRS' | null | undefined {
  if (!authorizers.length) return undefined;
  if (authorizers.every((a) => a === 'SVCAN')) return 'SVCAN';
  if (authorizers.every((a) => a === 'SVCRS')) return 'SVCRS';
  return null;
}
