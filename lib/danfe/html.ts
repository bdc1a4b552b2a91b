/** Shared pieces of the HTML renderers: escaping (every text from the XML goes through `esc`) and the labelled field. */
const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** A labelled DANFE field: small caption above the value. */
export function field(label: string, value: string, cls = ''): string {
  return `<td class="f${cls ? ` ${cls}` : ''}"><span class="l">${esc(label)}</span><span class="v">${esc(value) || '&nbsp;'}</span></td>`;
}
