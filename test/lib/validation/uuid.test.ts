import test from 'ava';
import { isIdShaped, isUuid, UUID_PATTERN } from '../../../lib/validation/uuid.js';
import { createValidator } from '../../../lib/validation/validator.js';
import { ruleToJsonSchema } from '../../../lib/http/openapi.js';

const ACCEPTED = [
  '8cfea046-5d1c-4c1e-9d0c-0b1f2a3c4d5e', // v4
  '8CFEA046-5D1C-4C1E-9D0C-0B1F2A3C4D5E', // either case
  '01890a5d-ac96-774b-bcce-b302099a8057', // v7
  'c232ab00-9414-11ec-b3c8-9f6bdeced846', // v1
  '1ec9414c-232a-6b00-b3c8-9f6bdeced846', // v6
  '00000000-0000-0000-0000-000000000000', // nil
  'ffffffff-ffff-ffff-ffff-ffffffffffff', // max
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
];
const REFUSED = [
  'abc', '', ' 8cfea046-5d1c-4c1e-9d0c-0b1f2a3c4d5e', '8cfea046-5d1c-4c1e-9d0c-0b1f2a3c4d5ex', '8cfea0465d1c4c1e9d0c0b1f2a3c4d5e',
  '8cfea046-5d1c-9c1e-9d0c-0b1f2a3c4d5e', // version 9
  '8cfea046-5d1c-0c1e-9d0c-0b1f2a3c4d5e', // version 0, not nil
  '8cfea046-5d1c-4c1e-cd0c-0b1f2a3c4d5e', // v4 without the RFC variant
  'ffffffff-ffff-ffff-ffff-fffffffffff0', // one digit off max
];

test('isUuid accepts versions 1-8, nil and max in either case, and nothing else', (t) => {
  for (const id of ACCEPTED) t.true(isUuid(id), id);
  for (const id of REFUSED) t.false(isUuid(id), id);
  t.false(isUuid(123));
  t.false(isUuid(null));
});

test('the uuid rule of the project validator checks UUID_PATTERN and answers in Portuguese', (t) => {
  const check = createValidator().compile({ $$strict: true, issuerId: { type: 'uuid' } });
  for (const id of ACCEPTED) t.is(check({ issuerId: id }), true, id);
  for (const id of REFUSED) t.like((check({ issuerId: id }) as any[])[0], { type: 'uuid', field: 'issuerId', message: "O campo 'issuerId' deve ser um UUID." }, id);
  t.like((check({ issuerId: 7 }) as any[])[0], { type: 'string', field: 'issuerId' });
  t.throws(() => createValidator().compile({ id: { type: 'uuid', version: 4 } }), { message: /version/ });
});

test('the OpenAPI schema of a uuid rule publishes the same pattern', (t) => {
  t.deepEqual(ruleToJsonSchema({ type: 'uuid' }).schema, { type: 'string', format: 'uuid', pattern: UUID_PATTERN });
  const published = new RegExp(ruleToJsonSchema('uuid').schema.pattern as string);
  for (const id of ACCEPTED) t.true(published.test(id), id);
  for (const id of REFUSED) t.false(published.test(id), id);
});

test('isIdShaped: any 8-4-4-4-12 hex may be a stored id (checked before a lookup); anything else never reaches the database', (t) => {
  for (const id of [...ACCEPTED, '3fa85f64-5717-0562-b3fc-2c963f66afa6', '3FA85F64-5717-4562-B3FC-2C963F66AFA6']) t.true(isIdShaped(id), id);
  for (const id of ['abc', '', '3fa85f64-5717-4562-b3fc-2c963f66afa', '3fa85f64-5717-4562-b3fc-2c963f66afa6 ', "3fa85f64' or 1=1", 7, null]) t.false(isIdShaped(id), String(id));
});
