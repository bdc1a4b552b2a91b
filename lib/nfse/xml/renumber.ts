import type { DpsContext } from './context.js';
import type { InfDpsXml } from './dps.js';
import { buildDpsId } from './id.js';

/**
 * A built infDPS under another nDPS of the same DPS: the number (nDPS) and the Id, which embeds it
 * zero-padded to 15 digits (lib/nfse/xml/id.ts), are the only parts of infDPS that come from the
 * number (lib/nfse/xml/dps.ts). The rest of the contexts must be the same (issuer, dhEmi, tpAmb,
 * verAplic); a context that differs elsewhere is a wiring bug (RangeError).
 *
 * Each part is proved before it is swapped, so nothing is ever half-renumbered: the draft's Id must
 * be the one buildDpsId writes for `from` and `serie`, and must sit in infDPS's own opening tag
 * (free text may hold `Id="…"`: C14N leaves quotes in text unescaped, so the tag is matched, not the
 * string); `<nDPS>` must occur exactly once and hold `from.nDPS` (free text never holds a `<`,
 * which the writer escapes, and no other group of the DPS has an nDPS). Anything else is a
 * RangeError. The Id keeps its width and nDPS stays 1-15 digits without a leading zero (TSNumDPS),
 * so the result is as schema-valid as its input.
 */
export function renumberInfDps(infDps: InfDpsXml, serie: number, from: DpsContext, to: DpsContext): InfDpsXml {
  const same = sameIssuer(from, to) && from.dhEmi === to.dhEmi && from.tpAmb === to.tpAmb && from.verAplic === to.verAplic;
  if (!same) throw new RangeError('renumberInfDps: the contexts differ in more than nDPS');
  const idOf = (ctx: DpsContext) => buildDpsId(ctx.issuer.endereco.codigoMunicipio, ctx.issuer.cnpj, serie, ctx.nDPS);
  const fromId = idOf(from);
  if (infDps.id !== fromId) throw new RangeError(`renumberInfDps: the draft's Id ${infDps.id} is not ${fromId}`);
  const toId = idOf(to); // range-checks to.nDPS (1 to 15 digits)
  if (from.nDPS === to.nDPS) return infDps;
  const rewrite = (xml: string) => swapNumber(swapId(xml, fromId, toId), from.nDPS, to.nDPS);
  return { id: toId, element: rewrite(infDps.element), canonical: rewrite(infDps.canonical) };
}

/** The issuer is the same object in practice (finishDps); an equal copy is accepted too. */
function sameIssuer(from: DpsContext, to: DpsContext): boolean {
  return from.issuer === to.issuer || JSON.stringify(from.issuer) === JSON.stringify(to.issuer);
}

function swapId(xml: string, fromId: string, toId: string): string {
  const end = xml.indexOf('>') + 1;
  const openTag = xml.slice(0, end);
  const attr = ` Id="${fromId}">`;
  if (!openTag.startsWith('<infDPS ') || !openTag.endsWith(attr)) throw new RangeError(`renumberInfDps: Id="${fromId}" not found on infDPS`);
  return openTag.slice(0, -attr.length) + ` Id="${toId}">` + xml.slice(end);
}

function swapNumber(xml: string, from: number, to: number): string {
  const at = xml.indexOf('<nDPS>');
  if (at < 0 || xml.indexOf('<nDPS>', at + 1) >= 0) throw new RangeError('renumberInfDps: not exactly one <nDPS> found');
  const part = `<nDPS>${from}</nDPS>`;
  if (!xml.startsWith(part, at)) throw new RangeError(`renumberInfDps: ${part} not found`);
  return xml.slice(0, at) + `<nDPS>${to}</nDPS>` + xml.slice(at + part.length);
}
