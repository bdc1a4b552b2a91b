import test from 'ava';
import { buildSignedNfe, draftNfe } from '../../../lib/nfe/document.js';
import { buildEnviNFe } from '../../../lib/sefaz/messages.js';
import { enviNfeBytes, MAX_MESSAGE_BYTES } from '../../../lib/sefaz/message-limit.js';
import { createSigner } from '../../../lib/sign/signer.js';
import { checkNfe } from '../../../lib/nfe/check.js';
import { computeTotals } from '../../../lib/nfe/totals.js';
import { validateNfeBody } from '../../../lib/nfe/validate.js';
import type { CheckedNote, Item } from '../../../lib/nfe/types.js';
import { aContext, testSigningMaterial } from '../../support/checked-note-factories.js';
import { aCompactItem, aValidNfeBody, anIssuer, anItem, closingPayments, IBS_CBS } from '../../support/nfe-factories.js';
import { throwsCode } from '../../support/domain-errors.js';

const signer = createSigner(testSigningMaterial());
const PROVISIONAL = 999_999_999;

/** `n` items of one size each (fixed-width codes), with `cpl` as infCpl. */
function noteOf(n: number, item: (code: string) => Item, cpl?: string): CheckedNote {
  const items = Array.from({ length: n }, (_, i) => item(String(i + 1).padStart(4, '0')));
  const body = JSON.parse(JSON.stringify(aValidNfeBody({ items, pagamentos: closingPayments(items), ...(cpl ? { informacoesComplementares: cpl } : {}) })));
  return checkNfe(validateNfeBody(body), anIssuer());
}
/** ~1 KB an item: ICMS 00, PIS/COFINS 01 and the IBS/CBS group (bench/lib-nfe.ts's item). */
const full = (codigo: string) => anItem({ codigo, descricao: `Produto de teste ${codigo} com descricao razoavelmente longa`, ibsCbs: IBS_CBS });
const compact = (codigo: string) => aCompactItem({ codigo, descricao: `Produto ${codigo}` });

test('enviNfeBytes is the byte length of the enviNFe that carries the NFe, with the longest idLote', (t) => {
  const note = noteOf(1, full);
  const xml = buildSignedNfe(note, computeTotals(note), aContext(note), signer).xml;
  t.is(enviNfeBytes(xml), Buffer.byteLength(buildEnviNFe({ idLote: '999999999999999', signedNfeXml: xml })));
  t.is(enviNfeBytes('ção'), enviNfeBytes('cao') + 2, 'bytes, not characters');
  t.is(MAX_MESSAGE_BYTES, 512_000);
});

test('a note whose enviNFe passes 500 KB is refused with DOCUMENTO_EXCEDE_TAMANHO_MAXIMO by the draft, before a number, and by buildSignedNfe', (t) => {
  const note = noteOf(990, full);
  const totals = computeTotals(note);
  const draft = throwsCode(t, () => draftNfe(note, totals, aContext(note, { numero: PROVISIONAL }), signer), 'DOCUMENTO_EXCEDE_TAMANHO_MAXIMO');
  t.is(draft.code, 422);
  t.deepEqual(Object.keys(draft.data ?? {}), ['tamanhoBytes', 'limiteBytes']);
  t.true((draft.data!.tamanhoBytes as number) > 1_000_000 && (draft.data!.tamanhoBytes as number) < 1_100_000, String(draft.data!.tamanhoBytes));
  t.is(draft.data!.limiteBytes, MAX_MESSAGE_BYTES);
  const built = throwsCode(t, () => buildSignedNfe(note, totals, aContext(note, { numero: 1 }), signer), 'DOCUMENTO_EXCEDE_TAMANHO_MAXIMO');
  t.is(built.data!.limiteBytes, MAX_MESSAGE_BYTES);
  t.is(built.message, 'A nota assinada excede 500 KB, o limite da autoridade por mensagem (cStat 214); nada foi transmitido e nenhum número foi usado.');
});

test('990 items of ~480 bytes fit: the draft and the signed note pass, under the limit', (t) => {
  const note = noteOf(990, compact);
  t.notThrows(() => draftNfe(note, computeTotals(note), aContext(note, { numero: PROVISIONAL }), signer));
  const bytes = enviNfeBytes(buildSignedNfe(note, computeTotals(note), aContext(note), signer).xml);
  t.true(bytes < MAX_MESSAGE_BYTES && bytes > 450_000, String(bytes));
});

test('the limit is exact: an enviNFe of 512 000 bytes passes, one of 512 001 is refused, by the draft and by buildSignedNfe', (t) => {
  // infCpl pads a note of full items to the byte. Numbered with nine digits, as the draft is: a
  // draft counts the longest nNF, so a note with a shorter number may be refused up to 8 bytes early.
  const at9 = (note: CheckedNote) => aContext(note, { numero: PROVISIONAL });
  const bytesOf = (note: CheckedNote) => enviNfeBytes(buildSignedNfe(note, computeTotals(note), at9(note), signer).xml);
  const room = MAX_MESSAGE_BYTES - bytesOf(noteOf(495, full, 'x'.repeat(1000)));
  t.true(room > -1000 && room < 4000, `495 items leave ${room} bytes`);
  const at = noteOf(495, full, 'x'.repeat(1000 + room));
  t.is(bytesOf(at), MAX_MESSAGE_BYTES);
  t.notThrows(() => draftNfe(at, computeTotals(at), at9(at), signer));
  const over = noteOf(495, full, 'x'.repeat(1001 + room));
  throwsCode(t, () => buildSignedNfe(over, computeTotals(over), at9(over), signer), 'DOCUMENTO_EXCEDE_TAMANHO_MAXIMO');
  const refused = throwsCode(t, () => draftNfe(over, computeTotals(over), at9(over), signer), 'DOCUMENTO_EXCEDE_TAMANHO_MAXIMO');
  t.deepEqual(refused.data, { tamanhoBytes: MAX_MESSAGE_BYTES + 1, limiteBytes: MAX_MESSAGE_BYTES });
});
