/**
 * The pages behind each error `type` URI (issue 21, item 5): `{errors_base}/<CODE>` explains the
 * code, its cause and the fix; `{errors_base}` lists them all, one anchor per code. Generated from
 * lib/errors/catalog.ts, the one source of codes, so a new code has its page the moment it exists.
 */
import { STATUS_CODES } from 'node:http';
import { CATALOG, isCatalogued, type ErrorCode } from '../errors/index.js';

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#222}
code{background:#f3f3f3;padding:0 .25em}section{border-top:1px solid #ddd;padding:.5rem 0}section:target{background:#fffbe6}
dt{font-weight:600}dd{margin:0 0 .5rem 0}</style></head>
<body>${body}</body></html>
`;
}

function entry(code: ErrorCode, heading: 'h1' | 'h2'): string {
  const { status, detail, fix } = CATALOG[code];
  return `<${heading}><code>${code}</code></${heading}>
<dl><dt>Status HTTP</dt><dd>${status} ${escape(STATUS_CODES[status] ?? '')}</dd>
<dt>Causa</dt><dd class="causa">${escape(detail)}</dd>
<dt>Como resolver</dt><dd class="correcao">${escape(fix)}</dd></dl>`;
}

/** The page of one code, or undefined when the code is not catalogued (the caller answers 404). */
export function renderErrorPage(code: string, links: { index: string; docs: string }): string | undefined {
  if (!isCatalogued(code)) return undefined;
  return layout(`${code}: erro da API`, `${entry(code, 'h1')}
<p>Toda resposta de erro traz este código em <code>error.type</code>, a mensagem em <code>error.detail</code> e o
<code>requestId</code> para o suporte. <a href="${escape(links.index)}#${code}">Todos os códigos</a> · <a href="${escape(links.docs)}">Documentação da API</a></p>`);
}

/** Every code, each under its own anchor (`#CODE`), grouped by HTTP status. */
export function renderErrorIndex(links: { docs: string }): string {
  const codes = (Object.keys(CATALOG) as ErrorCode[]).sort((a, b) => CATALOG[a].status - CATALOG[b].status || a.localeCompare(b));
  const sections = codes.map((c) => `<section id="${c}">${entry(c, 'h2')}</section>`).join('\n');
  return layout('Códigos de erro da API', `<h1>Códigos de erro</h1>
<p>O envelope de erro (<code>{"error":{type,title,status,detail,errors?,details?,instance,requestId,timestamp}}</code>) aponta
em <code>type</code> para a página do código. <a href="${escape(links.docs)}">Documentação da API</a></p>
${sections}`);
}
