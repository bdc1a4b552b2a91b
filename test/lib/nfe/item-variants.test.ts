import test from 'ava';
import { checkNfce, checkNfe } from '../../../lib/nfe/check.js';
import { computeTotals } from '../../../lib/nfe/totals.js';
import { validateNfceBody, validateNfeBody } from '../../../lib/nfe/validate.js';
import { ITEM_VARIANTS, aValidNfceBody, aValidNfeBody, anIssuer, closingPayments } from '../../support/nfe-factories.js';

// The factory catalogue is a contract for the XML tests: every variant must be accepted as is.
for (const [name, variant] of Object.entries(ITEM_VARIANTS)) {
  test(`item variant ${name} passes validation and the NF-e rules for crt ${variant.crt.join(', ')}`, (t) => {
    for (const crt of variant.crt) {
      const body = validateNfeBody(aValidNfeBody({ items: [variant.item], pagamentos: closingPayments([variant.item]) }));
      const note = checkNfe(body, anIssuer({ crt }));
      t.is(computeTotals(note).vNF >= 0n, true);
    }
  });
  if (variant.nfce) {
    test(`item variant ${name} passes the NFC-e rules`, (t) => {
      const item = { ...variant.item, cfop: variant.item.cfop.replace(/^6/, '5') };
      t.notThrows(() => checkNfce(validateNfceBody(aValidNfceBody({ items: [item], pagamentos: closingPayments([item]) })), anIssuer({ crt: variant.crt[0]! })));
    });
  }
}

test('all NF-e variants of one regime fit in a single note whose payments close', (t) => {
  const items = Object.values(ITEM_VARIANTS).filter((v) => v.crt.includes(3)).map((v) => v.item);
  t.notThrows(() => checkNfe(validateNfeBody(aValidNfeBody({ items, pagamentos: closingPayments(items) })), anIssuer()));
});
