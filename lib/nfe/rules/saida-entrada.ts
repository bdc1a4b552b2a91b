/**
 * `dataSaidaEntrada`: date and time the goods leave (or enter), written as dhSaiEnt (B10, child of
 * ide; TDateTimeUTC, optional in NF-e, absent from NFC-e) and printed in the DANFE's "Data/Hora da
 * saída/entrada" boxes. The API takes any ISO 8601 date-time with seconds and an offset (`Z` or
 * ±hh:mm); the note carries it in Brasília time with its offset, as dhEmi is written
 * (lib/emission/build-context.ts), because TDateTimeUTC only accepts whole-hour offsets from −11
 * to +12 and years 20xx.
 */
export const DATA_SAIDA_ENTRADA_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z|[+-]\d{2}:\d{2})$/;

/** Brasília has been UTC−03:00 all year since 2019 (Decreto 9.772/2019). */
const BRASILIA_OFFSET_MINUTES = -180;

/**
 * The value as dhSaiEnt writes it (`2026-11-25T14:30:00-03:00`), or undefined when it is not a real
 * calendar date-time (30 February, hour 24, offset beyond ±14:00) or falls outside the years the
 * layout accepts (2000-2099).
 */
export function toDhSaiEnt(value: string): string | undefined {
  const m = DATA_SAIDA_ENTRADA_PATTERN.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day
    || check.getUTCHours() !== hour || check.getUTCMinutes() !== minute || check.getUTCSeconds() !== second) return undefined;
  const offset = m[7] === 'Z' ? 0 : offsetMinutes(m[7]!);
  if (offset === undefined) return undefined;
  const brasilia = new Date(local - offset * 60_000 + BRASILIA_OFFSET_MINUTES * 60_000).toISOString();
  if (!brasilia.startsWith('20')) return undefined;
  return `${brasilia.slice(0, 19)}-03:00`;
}

function offsetMinutes(text: string): number | undefined {
  const hours = Number(text.slice(1, 3));
  const minutes = Number(text.slice(4, 6));
  if (hours > 14 || minutes > 59) return undefined;
  return (text[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}
