import test from 'ava';
import { createValidator } from '../../../lib/validation/validator.js';
import { createIssuerSchema, patchIssuerSchema } from '../../../lib/issuer/schema.js';
import { aCompleteIssuer } from '../../services/issuer/support.js';

const v = createValidator();
const checkCreate = v.compile({ ...createIssuerSchema });
const checkPatch = v.compile({ ...patchIssuerSchema });
const failedFields = (result: true | { field?: string }[]) => (result === true ? [] : result.map((e) => e.field).sort());

test('createIssuerSchema refuses issuer texts the layout (TString) cannot carry: a BOM, a combining accent, an edge space', (t) => {
  const body = aCompleteIssuer({ razaoSocial: '\ufeffEMPRESA', nomeFantasia: 'LOJA ' });
  (body.endereco as Record<string, unknown>).bairro = 'Centro c\u0327';
  t.deepEqual(failedFields(checkCreate(body) as any), ['endereco.bairro', 'nomeFantasia', 'razaoSocial']);
  t.true(checkCreate(aCompleteIssuer({ razaoSocial: 'AÇÃO & CIA LTDA', nomeFantasia: 'Pão Doce' })));
});

test('patchIssuerSchema applies the same text rule', (t) => {
  t.deepEqual(failedFields(checkPatch({ razaoSocial: 'EMPRESA\n2' }) as any), ['razaoSocial']);
  t.true(checkPatch({ razaoSocial: 'EMPRESA NOVA LTDA', endereco: { logradouro: 'Rua São João' } }));
});
