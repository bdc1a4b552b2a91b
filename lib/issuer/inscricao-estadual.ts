import { validateIE } from 'validations-br';

/**
 * Format and check digit of a state registration (inscrição estadual) per UF, as each SEFAZ
 * publishes it in the SINTEGRA "roteiro de crítica" (www.sintegra.gov.br/Cad_Estados/cad_<UF>.html).
 * The per-UF rules, the sample numbers and where this differs from the library are in
 * data/ie/README.md.
 *
 * validations-br implements one algorithm per UF; it was checked against the SINTEGRA pages and is
 * used as is for 24 UFs. Three UFs are written here because the library is narrower than the
 * authority:
 * - GO: numbers may start with 10, 11, 15 or 20-29 (SINTEGRA cad_GO; SEFAZ-GO issues 20 since
 *   2023), and the old range 10103105-10119997 takes check digit 1 when the remainder is 1. The
 *   library accepts 10/11/15/20 only and applies the range exception to remainder 0 instead.
 * - PA: numbers start with 15 or, since October 2024 (SEFA-PA), with 75; the library knows only 15.
 * - AL: numbers start with 24 (SINTEGRA cad_AL); the library does not check the prefix.
 * Only digits are accepted: the layout's IE types are `[0-9]{2,14}` (tiposBasico_v4.00.xsd), so
 * SP's rural producer form `P-...` cannot appear in an NF-e. ISENTO is the caller's decision.
 */

/** The 27 UFs (IBGE). */
export const UFS = [
  'AC', 'AL', 'AM', 'AP', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MG', 'MS', 'MT', 'PA', 'PB', 'PE', 'PI', 'PR',
  'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO',
] as const;
export type Uf = (typeof UFS)[number];

export function isUf(value: string): value is Uf {
  return (UFS as readonly string[]).includes(value);
}

/** Weights 9..2 from the left over `body`, remainder of 11 (the common SINTEGRA scheme). */
function mod11Remainder(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[i]) * (body.length + 1 - i);
  return sum % 11;
}

/** GO (SINTEGRA cad_GO): 8 digits + 1; remainder 0 → 0; remainder 1 → 1 inside the old range, else 0. */
function isValidGo(ie: string): boolean {
  if (!/^(1[015]|2\d)\d{7}$/.test(ie)) return false;
  const base = ie.slice(0, 8);
  const rest = mod11Remainder(base);
  const n = Number(base);
  const digit = rest === 0 ? 0 : rest === 1 ? (n >= 10103105 && n <= 10119997 ? 1 : 0) : 11 - rest;
  return Number(ie[8]) === digit;
}

/** PA (SINTEGRA cad_PA): 8 digits + 1, prefix 15 or 75; remainder 0 or 1 → 0, else 11 − remainder. */
function isValidPa(ie: string): boolean {
  if (!/^(15|75)\d{7}$/.test(ie)) return false;
  const rest = mod11Remainder(ie.slice(0, 8));
  return Number(ie[8]) === (rest < 2 ? 0 : 11 - rest);
}

const OWN: Partial<Record<Uf, (ie: string) => boolean>> = {
  GO: isValidGo,
  PA: isValidPa,
  AL: (ie) => ie.startsWith('24') && validateIE(ie, 'AL'),
};

/**
 * True when `ie` (digits only, no mask) is a well-formed state registration of `uf` with the right
 * check digit(s). ISENTO and unknown UFs (including EX) are false: callers decide where ISENTO is
 * allowed (it is for the issuer and the carrier, not for the recipient: TIeDestNaoIsento).
 */
export function isValidIe(ie: string, uf: string): boolean {
  if (!/^\d{2,14}$/.test(ie) || !isUf(uf)) return false;
  const own = OWN[uf];
  return own ? own(ie) : validateIE(ie, uf);
}
