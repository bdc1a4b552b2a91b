import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDanfeView } from '../../../lib/danfe/view-model.js';
import { renderNfePdf } from '../../../lib/danfe/nfe-pdf.js';
import { renderNfcePdf } from '../../../lib/danfe/nfce-pdf.js';
import { renderDaccePdf } from '../../../lib/danfe/dacce-pdf.js';
import { buildDacceView } from '../../../lib/danfe/dacce-view.js';
import { canceledProc, cceProcFor, contingencyProc, fullProc, oneItemProc } from '../../support/danfe-golden-notes.js';
import { signedNote } from '../../support/danfe-notes.js';
import { aNfce } from '../../support/checked-note-factories.js';
import { compareWithGoldens, decodeSymbols, diffPng, GOLDEN_DIR, GOLDEN_TOLERANCE, rasterize, updating } from '../../support/golden.js';

/**
 * DANFE golden images (issue 22 item 6): fixed notes rendered to PDF, rasterized by pdftoppm and
 * compared with test/fixtures/danfe/*.png (test/support/golden.ts; UPDATE_GOLDENS=1 rewrites them).
 */
const LOGO = readFileSync(new URL('../../fixtures/logo/logo.png', import.meta.url));
const contingencyNfce = () => signedNote(aNfce(), { tpEmis: 9 }).xml;

/** Name of the goldens, number of sheets, renderer. */
const CASES: [string, number, () => Promise<Buffer>][] = [
  ['nfe-1-item', 1, async () => renderNfePdf(buildDanfeView(oneItemProc()))],
  ['nfe-45-itens', 2, async () => renderNfePdf(buildDanfeView(fullProc()), { logo: LOGO })],
  ['nfe-cancelada', 1, async () => renderNfePdf(buildDanfeView(canceledProc(), { cancelada: true }))],
  ['nfe-contingencia', 1, async () => renderNfePdf(buildDanfeView(contingencyProc()))],
  ['nfe-paisagem', 3, async () => renderNfePdf(buildDanfeView(fullProc().replace('<tpImp>1</tpImp>', '<tpImp>2</tpImp>')), { logo: LOGO })],
  ['dacce', 1, async () => { const note = oneItemProc(); return renderDaccePdf(buildDacceView(cceProcFor(note), buildDanfeView(note))); }],
  ['nfe-simplificado', 1, async () => renderNfePdf(buildDanfeView(fullProc().replace('<tpImp>1</tpImp>', '<tpImp>3</tpImp>')))],
  ['nfce-contingencia', 1, async () => renderNfcePdf(buildDanfeView(contingencyNfce()))],
];

for (const [name, sheets, render] of CASES) {
  test(`golden ${name}: ${sheets} sheet(s), each within ${GOLDEN_TOLERANCE * 100}% of its committed image`, async (t) => {
    const diffs = compareWithGoldens(name, rasterize(await render()));
    t.is(diffs.length, sheets);
    for (const d of diffs) t.true(d.ratio <= GOLDEN_TOLERANCE, `${name} page ${d.page}: ${(d.ratio * 100).toFixed(2)}% of the pixels differ${d.diffFile ? ` (diff: ${d.diffFile})` : ''}`);
  });
}

test('the comparison fails a layout change: the 45-item note with a taller fatura block differs beyond the tolerance', async (t) => {
  if (updating) return t.pass();
  // One more duplicata row pushes every block below the fatura down by a row.
  const moved = fullProc().replace(/(<dup>[\s\S]*?<\/dup>)(?![\s\S]*<dup>)/, '$1<dup><nDup>004</nDup><dVenc>2027-03-22</dVenc><vDup>0.01</vDup></dup>'.repeat(4));
  const page = rasterize(await renderNfePdf(buildDanfeView(moved), { logo: LOGO }))[0]!;
  const { ratio } = diffPng(page, readFileSync(join(GOLDEN_DIR, 'nfe-45-itens-1.png')), 'negative-control');
  t.true(ratio > GOLDEN_TOLERANCE * 4, `${(ratio * 100).toFixed(2)}%`);
});

test('the DANFE barcode decodes (zbarimg) to the access key, on the A4 DANFE and on the simplified label', async (t) => {
  for (const xml of [oneItemProc(), oneItemProc().replace('<tpImp>1</tpImp>', '<tpImp>3</tpImp>')]) {
    const v = buildDanfeView(xml);
    const page = rasterize(await renderNfePdf(v), 200)[0]!;
    t.deepEqual(decodeSymbols(page), [v.accessKey]);
  }
});

test('the DANFCE QR code decodes (zbarimg) to the QR text stored in the note', async (t) => {
  const v = buildDanfeView(contingencyNfce());
  t.regex(v.qrCode, /^https?:\/\//);
  const page = rasterize(await renderNfcePdf(v), 200)[0]!;
  t.deepEqual(decodeSymbols(page), [v.qrCode]);
});
