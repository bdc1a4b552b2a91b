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

test('assertNfeSchema carries libxml2\'s messages as details.esquema, never errors[] (which only a 400 may carry)', (t) => {
  const err: any = t.throws(() => assertNfeSchema(`<NFe xmlns="${NFE_NS}"></NFe>`));
  t.false('errors' in err.data);
  t.true(Array.isArray(err.data.esquema) && err.data.esquema.length > 0);
  t.true(err.data.esquema.every((m: unknown) => typeof m === 'string'));
});
