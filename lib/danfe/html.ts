/** Shared pieces of the HTML renderers: escaping (every text from the XML goes through `esc`) and labels. */
import type { DanfeMark } from './view-model.js';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A labelled DANFE field: small caption above the value. */
export function field(label: string, value: string, cls = ''): string {
  return `<td class="f${cls ? ` ${cls}` : ''}"><span class="l">${esc(label)}</span><span class="v">${esc(value) || '&nbsp;'}</span></td>`;
}

/** Texts of the marks, as printed (MOC DANFE; DANFE NFC-e manual). */
export const MARK_TEXT: Readonly<Record<DanfeMark, string>> = {
  SEM_VALOR_FISCAL: 'SEM VALOR FISCAL',
  CANCELADA: 'CANCELADA',
  CONTINGENCIA_PENDENTE: 'EMITIDA EM CONTINGÊNCIA',
};
