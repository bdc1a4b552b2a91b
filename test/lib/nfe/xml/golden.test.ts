import test from 'ava';
import { readFileSync } from 'node:fs';
import { buildNfe } from '../../../../lib/nfe/xml/nfe.js';
import { aContext, totalsOf } from '../../../support/checked-note-factories.js';
import { scenarios } from '../../../support/note-scenarios.js';

/**
 * Golden canonical infNFe (test/fixtures/nfe-xml): byte-for-byte regression anchors, reviewed by
 * hand when written (totals close: vNF 112.50 = 100 − 10 + 15 + 5 + 2.50; payments 120 − change
 * 7.50). A change here changes every digest, so it must be deliberate.
 */
for (const name of ['transport-billing-card-change', 'nfce-offline-contingency']) {
  test(`buildNfe matches the golden canonical infNFe of ${name}`, (t) => {
    const s = scenarios().find((x) => x.name === name)!;
    const expected = readFileSync(new URL(`../../../fixtures/nfe-xml/infNFe-${name}.xml`, import.meta.url), 'utf8');
    t.is(buildNfe(s.note, totalsOf(s.note), aContext(s.note, { issuer: s.issuer, tpEmis: s.tpEmis, tpAmb: s.tpAmb })).canonical, expected);
  });
}
