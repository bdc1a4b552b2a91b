/**
 * How the DANFE prints values: Brazilian decimal comma and thousands dot, documents with their
 * masks, dates as dd/mm/aaaa read from the XML's own local time (no clock, no time zone
 * conversion: the printed time is the one the issuer wrote). Decimal strings from the XML are
 * never turned into floats.
 */
import { formatBrl } from '../money.js';

/** "1234.5" with `frac` decimals → "1.234,50": pads or drops trailing zeros only (the XML already has its precision). */
export function formatDecimal(value: string | null | undefined, frac = 2): string {
  if (value === null || value === undefined || value === '') return '';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return value;
  const sign = m[1]!;
  const digits = (m[3] ?? '').padEnd(frac, '0');
  // Decimals beyond the column's precision are shown when significant, never silently dropped.
  const shown = /[^0]/.test(digits.slice(frac)) ? digits.replace(/0+$/, '') : digits.slice(0, frac);
  const grouped = BigInt(m[2]!).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}${grouped}${shown ? `,${shown}` : ''}`;
}

/** Money "1234.50" → "1.234,50" (lib/money.ts formatBrl over exact cents). */
export function formatMoney(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) return formatDecimal(value, 2);
  const cents = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0'));
  return formatBrl(m[1] ? -cents : cents);
}

/** The 44-digit access key in 11 groups of 4 (MOC, DANFE layout). */
export function groupAccessKey(key: string): string {
  return key.replace(/(.{4})(?=.)/g, '$1 ');
}

export function formatCnpjCpf(doc: string | null | undefined): string {
  if (!doc) return '';
  if (doc.length === 14) return `${doc.slice(0, 2)}.${doc.slice(2, 5)}.${doc.slice(5, 8)}/${doc.slice(8, 12)}-${doc.slice(12)}`;
  if (doc.length === 11) return `${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`;
  return doc;
}

export function formatCep(cep: string | null | undefined): string {
  if (!cep) return '';
  return cep.length === 8 ? `${cep.slice(0, 5)}-${cep.slice(5)}` : cep;
}

/** 9 digits with thousand dots: 1234 → "000.001.234" (MOC DANFE, number field). */
export function formatNumber(n: number): string {
  return String(n).padStart(9, '0').replace(/(\d{3})(?=\d)/g, '$1.');
}

export function formatSerie(n: number): string {
  return String(n).padStart(3, '0');
}

/** "2026-11-22T17:40:00-03:00" → "22/11/2026". */
export function formatDate(dh: string | null | undefined): string {
  if (!dh) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(dh);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : dh;
}

/** "2026-11-22T17:40:00-03:00" → "17:40:00". */
export function formatTime(dh: string | null | undefined): string {
  if (!dh) return '';
  const m = /T(\d{2}:\d{2}:\d{2})/.exec(dh);
  return m ? m[1]! : '';
}

export function formatDateTime(dh: string | null | undefined): string {
  if (!dh) return '';
  const time = formatTime(dh);
  return time ? `${formatDate(dh)} ${time}` : formatDate(dh);
}

export function formatPhone(fone: string | null | undefined): string {
  if (!fone) return '';
  const d = fone.replace(/\D/g, '');
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
  return fone;
}

/** modFrete (X02), as the DANFE prints it. */
export const MOD_FRETE: Readonly<Record<string, string>> = {
  '0': '0 - Por conta do Remetente',
  '1': '1 - Por conta do Destinatário',
  '2': '2 - Por conta de Terceiros',
  '3': '3 - Transporte Próprio Remetente',
  '4': '4 - Transporte Próprio Destinatário',
  '9': '9 - Sem Ocorrência de Transporte',
};

/** tPag (YA02). */
export const FORMA_PAGAMENTO: Readonly<Record<string, string>> = {
  '01': 'Dinheiro', '02': 'Cheque', '03': 'Cartão de Crédito', '04': 'Cartão de Débito', '05': 'Crédito Loja',
  '10': 'Vale Alimentação', '11': 'Vale Refeição', '12': 'Vale Presente', '13': 'Vale Combustível',
  '15': 'Boleto Bancário', '16': 'Depósito Bancário', '17': 'PIX', '18': 'Transferência bancária, Carteira Digital',
  '19': 'Programa de fidelidade, Cashback, Crédito Virtual', '20': 'PIX Estático', '21': 'Crédito em Loja',
  '22': 'Pagamento Eletrônico não Informado', '90': 'Sem pagamento', '99': 'Outros',
};
