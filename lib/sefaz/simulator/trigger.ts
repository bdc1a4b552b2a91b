/**
 * Rejections on demand (issue 19): in homologation, a text `SIMULAR_REJEICAO:<cStat>` in a note's
 * infAdic (infCpl or infAdFisco; the API's `informacoesComplementares`), an event's xJust/xCorrecao or an
 * inutilização's xJust makes the simulator answer that rejection with its verbatim text, after every
 * real rule passed, so a partner can exercise its handling of any code end to end. Only codes of the
 * table that are rejections (201-999 with a "Rejeição" text, or the duplicity answers) are honoured;
 * anything else is ignored, and the request is processed as usual.
 */
const TRIGGER = /SIMULAR_REJEICAO:(\d{3})\b/;

export function requestedRejection(text: string | null | undefined, tpAmb: string, textOf: (cStat: number) => string | null): number | null {
  if (tpAmb !== '2' || !text) return null;
  const m = TRIGGER.exec(text);
  if (!m) return null;
  const cStat = Number(m[1]);
  const motivo = textOf(cStat);
  return cStat > 200 && motivo ? cStat : null;
}
