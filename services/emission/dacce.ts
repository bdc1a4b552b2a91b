import { DomainError } from '../../lib/errors/index.js';
import { buildDacceView } from '../../lib/danfe/dacce-view.js';
import { checkDacceSource } from '../../lib/danfe/dacce-source.js';
import { renderDaccePdf } from '../../lib/danfe/dacce-pdf.js';
import { renderDacceHtml } from '../../lib/danfe/dacce-html.js';
import { buildDanfeView, type DanfeCartaCorrecao } from '../../lib/danfe/view-model.js';
import type { EmissionDeps } from './deps.js';
import type { FiscalEventStore } from './event-store.js';
import { ownDocument, type PrintFormat } from './queries.js';
import type { Reader } from './reader.js';
import { isIdShaped } from '../../lib/validation/uuid.js';

type Deps = Pick<EmissionDeps, 'store'> & { events: FiscalEventStore };

/**
 * The DACCe of a registered CC-e (issue 22 item 5), from its stored procEventoNFe and the note's
 * nfeProc: own document and event (404, as the event XML route), then lib/danfe/dacce-source.ts
 * (409 EVENTO_SEM_DACCE for another event type, 409 CONFLICT before registration).
 */
export async function eventDacce(deps: Deps, reader: Reader, id: unknown, eventId: unknown, format: PrintFormat): Promise<{ body: Buffer | string; contentType: string; disposition: string }> {
  const doc = await ownDocument(deps.store, reader, '55', id);
  const event = isIdShaped(eventId) ? await deps.events.get(eventId) : undefined;
  if (!event || event.documentId !== doc.id) throw new DomainError('NOT_FOUND', undefined, 'Evento não encontrado.');
  const xml = checkDacceSource(event, event.type === 'carta-correcao' && event.status === 'REGISTERED' ? await deps.events.xmlOf(event.id) : null);
  const noteXml = (await deps.store.xmlOf(doc.id))?.authorized;
  const view = buildDacceView(xml, noteXml ? buildDanfeView(noteXml) : null);
  const name = `${doc.accessKey}-110110-${String(event.sequence).padStart(2, '0')}-dacce`;
  if (format === 'html') return { body: renderDacceHtml(view), contentType: 'text/html; charset=utf-8', disposition: `inline; filename="${name}.html"` };
  return { body: await renderDaccePdf(view), contentType: 'application/pdf', disposition: `attachment; filename="${name}.pdf"` };
}

/**
 * The note's last registered CC-e, for a DANFE reprint that asks for it (each CC-e replaces the
 * earlier ones: MOC 4.00, Evento Carta de Correção); undefined when the note has none.
 */
export async function lastCartaCorrecao(deps: Deps, documentId: string): Promise<DanfeCartaCorrecao | undefined> {
  const last = (await deps.events.list(documentId))
    .filter((e) => e.type === 'carta-correcao' && e.status === 'REGISTERED')
    .sort((a, b) => b.sequence - a.sequence)[0];
  const xml = last ? await deps.events.xmlOf(last.id) : null;
  if (!xml) return undefined;
  const v = buildDacceView(xml);
  return { sequencia: v.sequencia, correcao: v.correcao, protocolo: v.registro?.protocolo ?? '', dhRegEvento: v.registro?.dhRegEvento ?? '' };
}
