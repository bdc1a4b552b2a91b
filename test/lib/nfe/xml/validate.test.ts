import test from 'ava';
import { NFE_NS } from '../../../../lib/nfe/xml/nfe.js';
import { assertNfeSchema } from '../../../../lib/nfe/xml/validate.js';

test('assertNfeSchema refuses malformed or non-conforming XML with XML_FORA_DO_ESQUEMA', (t) => {
  for (const xml of ['<NFe', `<NFe xmlns="${NFE_NS}"></NFe>`]) {
    const err = t.throws(() => assertNfeSchema(xml));
    t.is((err as any).type, 'XML_FORA_DO_ESQUEMA');
    t.is((err as any).code, 422);
  }
});
