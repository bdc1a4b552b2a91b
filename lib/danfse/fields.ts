/** The DANFSe grid's vocabulary: a labelled field, a titled block, and how values print ("-" when absent, as the national layout does). */
import { formatMoney } from '../danfe/format.js';

export interface DanfseField {
  label: string;
  value: string;
  /** Columns of the four-column grid the field spans. */
  span: number;
}

export interface DanfseSection {
  title: string;
  rows: DanfseField[][];
  /** Printed instead of the rows when the block has no data (taker or intermediary not identified). */
  absent?: string;
}

export const EMPTY = '-';
export const date = (d: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(d) ? `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}` : d || EMPTY);
export const money = (v: string): string => (v ? `R$ ${formatMoney(v)}` : EMPTY);
export const pct = (v: string): string => (v ? `${v.replace('.', ',')}%` : EMPTY);
export const f = (label: string, value: string, span = 1): DanfseField => ({ label, value: value || EMPTY, span });
