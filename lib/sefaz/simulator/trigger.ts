/**
 * Rejections on demand (issue 19): in homologation, a text `SIMULAR_REJEICAO:<cStat>` in a note's
 * infAdic (infCpl or infAdFisco; the API's `informacoesComplementares`), an event's xJust/xCorrecao or an
 * inutilização's xJust makes the simulator answer that rejection with its verbatim text, after every
 * real rule passed, so a partner can exercise its handling of any code end to end. Only codes of the
 * table that are rejections (201-999 with a "Rejeição" text, or the duplicity answers) are honoured;
 * anything else is ignored, and the request is processed as usual.
 *
 * Texts with a placeholder are answered filled as the authority fills them, from what the request
 * has: `[nRec:…]` the receipt (the batch's for a note, the note's for an event), `[chNFe:…]` the
 * note's key, `[nItem:…]` its first item. A code whose placeholder the request cannot fill (204/218/539
 * on an inutilização, `[Limite]`, `[nRef: …]`, `[prazo vigente]`, `[Chave EPEC: …]`) is not honoured:
 * the answer never carries the table's dummy value.
 */
const TRIGGER = /SIMULAR_REJEICAO:(\d{3})\b/;
/** A placeholder still holding the table's dummy value (9…, nnn, xxx) or one never filled. */
const PLACEHOLDER = /\[(?:nRec:9+|chNFe: ?9+|nItem:(?:9+|n+)|nRef|Limite|prazo vigente|Chave EPEC)\b[^\]]*\]/;

/** Whether a text may ask for a rejection (so the caller has the fill values ready before asking). */
export const mayRequestRejection = (text: string | null | undefined, tpAmb: string): boolean => tpAmb === '2' && !!text && TRIGGER.test(text);

export interface TriggerFill { nRec?: string; chNFe?: string; nItem?: string }

export function requestedRejection(
  text: string | null | undefined, tpAmb: string, textOf: (cStat: number) => string | null, fill: TriggerFill = {},
): { cStat: number; xMotivo: string } | null {
  if (tpAmb !== '2' || !text) return null;
  const m = TRIGGER.exec(text);
  if (!m) return null;
  const cStat = Number(m[1]);
  const template = textOf(cStat);
  if (cStat <= 200 || !template) return null;
  let xMotivo = template;
  // The table writes `[chNFe:999…]` (539, 562): whatever spacing a row has is kept.
  if (fill.nRec) xMotivo = xMotivo.replace(/\[nRec:[^\]]*\]/, `[nRec:${fill.nRec}]`);
  if (fill.chNFe) xMotivo = xMotivo.replace(/\[chNFe:( ?)[^\]]*\]/, `[chNFe:$1${fill.chNFe}]`);
  if (fill.nItem) xMotivo = xMotivo.replace(/\[nItem:[^\]]*\]/, `[nItem:${fill.nItem}]`);
  return PLACEHOLDER.test(xMotivo) ? null : { cStat, xMotivo };
}
