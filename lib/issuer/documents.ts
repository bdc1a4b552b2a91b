/**
 * Check digits of Brazilian registry numbers.
 *
 * CNPJ: 12 base characters + 2 check digits, modulo 11 with weights 2..9 from the right. Since the
 * alphanumeric CNPJ (IN RFB 2.229/2024, in force from July 2026) the 12 base characters may be
 * 0-9 or A-Z, each valued as its ASCII code minus 48 (so '0'..'9' keep their value and 'A' = 17);
 * the two check digits stay numeric. CPF: 9 digits + 2 check digits, weights 10..2 and 11..2.
 */

const CNPJ_SHAPE = /^[0-9A-Z]{12}[0-9]{2}$/;
const CPF_SHAPE = /^[0-9]{11}$/;

/** Removes the usual punctuation (`12.345.678/0001-95`) and upper-cases letters. */
export function normalizeCnpj(raw: string): string {
  return raw.replace(/[.\/\-\s]/g, '').toUpperCase();
}

export function normalizeCpf(raw: string): string {
  return raw.replace(/[.\-\s]/g, '');
}

function cnpjDigit(base: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = base.length - 1; i >= 0; i--) {
    sum += (base.charCodeAt(i) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** True for a well-formed CNPJ (numeric or alphanumeric) with correct check digits. */
export function isValidCnpj(cnpj: string): boolean {
  if (!CNPJ_SHAPE.test(cnpj)) return false;
  if (/^(\d)\1{13}$/.test(cnpj)) return false; // 00000000000000 etc. pass the arithmetic but are not issued
  const d1 = cnpjDigit(cnpj.slice(0, 12));
  const d2 = cnpjDigit(cnpj.slice(0, 12) + String(d1));
  return cnpj.endsWith(`${d1}${d2}`);
}

/** Completes a 12-character base with its two check digits (tests and the lookup simulator). */
export function withCnpjCheckDigits(base12: string): string {
  const d1 = cnpjDigit(base12);
  return `${base12}${d1}${cnpjDigit(base12 + String(d1))}`;
}

function cpfDigit(base: string): number {
  let sum = 0;
  for (let i = 0; i < base.length; i++) sum += Number(base[i]) * (base.length + 1 - i);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

export function isValidCpf(cpf: string): boolean {
  if (!CPF_SHAPE.test(cpf)) return false;
  if (/^(\d)\1{10}$/.test(cpf)) return false;
  const d1 = cpfDigit(cpf.slice(0, 9));
  const d2 = cpfDigit(cpf.slice(0, 9) + String(d1));
  return cpf.endsWith(`${d1}${d2}`);
}

export function withCpfCheckDigits(base9: string): string {
  const d1 = cpfDigit(base9);
  return `${base9}${d1}${cpfDigit(base9 + String(d1))}`;
}
