import test from 'ava';
import { NFCE_FIELD_HINTS, NFE_BATCH_FIELD_HINTS, NFE_FIELD_HINTS } from '../../../lib/nfe/field-hints.js';
import { validateNfceBody, validateNfeBody } from '../../../lib/nfe/validate.js';
import { DomainError } from '../../../lib/errors/index.js';
import { aValidNfceBody, aValidNfeBody, anItem } from '../../support/nfe-factories.js';

function unknownOf(fn: () => unknown): { campo: string; caminho: string; objeto: string; motivo?: string }[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return (error.data!.details as any).camposDesconhecidos;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

test('NFE_FIELD_HINTS maps the layout names the issue lists', (t) => {
  t.regex(NFE_FIELD_HINTS.NFref!, /referenciadas\[\]\.chaveAcesso/);
  t.regex(NFE_FIELD_HINTS.refNFe!, /referenciadas\[\]\.chaveAcesso/);
  for (const name of ['itens', 'det']) t.regex(NFE_FIELD_HINTS[name]!, /'items'/);
  for (const name of ['pagamento', 'pag', 'detPag']) t.regex(NFE_FIELD_HINTS[name]!, /'pagamentos'/);
  t.regex(NFE_FIELD_HINTS.dest!, /'destinatario'/);
  t.regex(NFE_FIELD_HINTS.transp!, /'transporte'/);
  t.regex(NFE_FIELD_HINTS.cobr!, /'cobranca'/);
  for (const name of ['infAdic', 'infCpl']) t.regex(NFE_FIELD_HINTS[name]!, /'informacoesComplementares'/);
  for (const name of ['exporta', 'compra', 'cana', 'retirada', 'entrega', 'autXML']) t.regex(NFE_FIELD_HINTS[name]!, /não suportado/);
  for (const name of ['II', 'ISSQN']) t.regex(NFE_FIELD_HINTS[`items[].${name}`]!, /não suportado/);
  t.regex(NFE_FIELD_HINTS['items[].ICMSUFDest']!, /'icmsUfDest'/);
  t.regex(NFE_FIELD_HINTS['items[].icms.CST']!, /'cst'/);
  t.regex(NFE_FIELD_HINTS['items[].pis.pPIS']!, /'aliquota'/);
  t.regex(NFE_FIELD_HINTS['items[].cofins.vCOFINS']!, /'valor'/);
  t.regex(NFE_BATCH_FIELD_HINTS['notas[].items[].icms.vBCSTRet']!, /retido/);
  t.regex(NFCE_FIELD_HINTS.destinatario!, /destCPF/);
});

test('hints reach the response for item and tax groups the product does not support', (t) => {
  const body: any = aValidNfeBody({ items: [anItem()] });
  body.items[0].ICMSUFDest = {};
  body.items[0].prod = {};
  body.exporta = {};
  t.deepEqual(unknownOf(() => validateNfeBody(body)), [
    { campo: 'ICMSUFDest', caminho: 'items[0].ICMSUFDest', objeto: 'items[0]', motivo: NFE_FIELD_HINTS['items[].ICMSUFDest'] },
    { campo: 'prod', caminho: 'items[0].prod', objeto: 'items[0]', motivo: 'No leiaute é um grupo; nesta API os campos do produto ficam diretamente no item.' },
    { campo: 'exporta', caminho: 'exporta', objeto: '', motivo: NFE_FIELD_HINTS.exporta },
  ]);
});

test('NFC-e hints explain NF-e-only fields', (t) => {
  const unknown = unknownOf(() => validateNfceBody({ ...aValidNfceBody(), finNFe: 1, transporte: { modFrete: 9 } }));
  t.deepEqual(unknown.map((u) => u.campo), ['finNFe', 'transporte']);
  t.true(unknown.every((u) => typeof u.motivo === 'string'));
});

test('dhSaiEnt points to dataSaidaEntrada in NF-e; NFC-e has neither (no exit date in model 65)', (t) => {
  t.deepEqual(unknownOf(() => validateNfeBody({ ...aValidNfeBody(), dhSaiEnt: '2026-11-25T14:30:00-03:00' })), [
    { campo: 'dhSaiEnt', caminho: 'dhSaiEnt', objeto: '', motivo: "No leiaute existe com outro nome: nesta API use 'dataSaidaEntrada'." },
  ]);
  for (const campo of ['dhSaiEnt', 'dataSaidaEntrada']) {
    t.deepEqual(unknownOf(() => validateNfceBody({ ...aValidNfceBody(), [campo]: '2026-11-25T14:30:00-03:00' })), [
      { campo, caminho: campo, objeto: '', motivo: 'Grupo/campo do leiaute não suportado por esta API: NFC-e não tem data de saída/entrada (dhSaiEnt).' },
    ]);
  }
});
