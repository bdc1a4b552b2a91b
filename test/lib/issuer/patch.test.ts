import test from 'ava';
import { applyIssuerPatch } from '../../../lib/issuer/patch.js';
import { anIssuerRecord } from './factories.js';

function refusal(fn: () => unknown) {
  try { fn(); } catch (err: any) { return { type: err.type, code: err.code, message: err.message, data: err.data }; }
  throw new Error('did not throw');
}

test('applyIssuerPatch: absent and null keep, "" clears, a value replaces', (t) => {
  const current = anIssuerRecord();
  const { profile, cnpj, changed } = applyIssuerPatch(current, { nomeFantasia: null, ie: '', cnae: '6201501', endereco: { numero: '', bairro: null, complemento: 'Fundos' } });
  t.is(cnpj, current.cnpj);
  t.deepEqual(profile, {
    ...current.profile,
    ie: null,
    cnae: '6201501',
    endereco: { ...current.profile.endereco, numero: null, complemento: 'Fundos' },
  });
  t.deepEqual(changed.sort(), ['cnae', 'endereco.complemento', 'endereco.numero', 'ie'].sort());
});

test('applyIssuerPatch: endereco "" clears the whole address; endereco null keeps it', (t) => {
  const current = anIssuerRecord();
  t.deepEqual(applyIssuerPatch(current, { endereco: '' }).profile.endereco, {});
  t.deepEqual(applyIssuerPatch(current, { endereco: null }).profile.endereco, current.profile.endereco);
});

test('applyIssuerPatch: a new IBGE code without a name takes the IBGE name', (t) => {
  const { profile } = applyIssuerPatch(anIssuerRecord(), { endereco: { codigoMunicipio: '3304557', uf: 'RJ' } });
  t.like(profile.endereco, { codigoMunicipio: '3304557', uf: 'RJ', municipio: 'Rio de Janeiro' });
});

test('applyIssuerPatch: "" on identity, default or boolean fields is a 400 naming each field', (t) => {
  const err = refusal(() => applyIssuerPatch(anIssuerRecord(), { cnpj: '', razaoSocial: '', serieNfe: '', fiscalBrainEnabled: '', sandbox: '' }));
  t.is(err.type, 'VALIDATION_ERROR');
  t.deepEqual((err.data.errors as any[]).map((e) => e.field).sort(), ['cnpj', 'fiscalBrainEnabled', 'razaoSocial', 'sandbox', 'serieNfe']);
});

test('applyIssuerPatch: non-null values pass format, length and check digits', (t) => {
  const err = refusal(() => applyIssuerPatch(anIssuerRecord(), { cscId: '1234567', csc: 'a b', ie: 'isento', razaoSocial: 'x'.repeat(61), pTotTribSNCompetencia: '2026-1', endereco: { uf: 'XX' } }));
  t.deepEqual((err.data.errors as any[]).map((e) => e.field).sort(), ['csc', 'cscId', 'endereco.uf', 'ie', 'pTotTribSNCompetencia', 'razaoSocial']);
  const digits = refusal(() => applyIssuerPatch(anIssuerRecord(), { cnpj: '11222333000182' }));
  t.deepEqual(digits, { type: 'VALIDATION_ERROR', code: 400, message: 'Dados de entrada inválidos.', data: { errors: [{ field: 'cnpj', message: 'CNPJ inválido: dígitos verificadores não conferem.' }] } });
  const place = refusal(() => applyIssuerPatch(anIssuerRecord(), { endereco: { uf: 'RJ' } }));
  t.deepEqual(place.data.errors, [{ field: 'endereco.codigoMunicipio', message: 'Município 3550308 (São Paulo) pertence a SP, não a RJ.' }]);
});

test('applyIssuerPatch: unknown keys refuse with camposDesconhecidos', (t) => {
  const err = refusal(() => applyIssuerPatch(anIssuerRecord(), { regime: 1, endereco: { pais: 'BR' } }));
  t.is(err.type, 'VALIDATION_ERROR');
  t.deepEqual(err.data.details.camposDesconhecidos.map((c: any) => c.caminho).sort(), ['endereco.pais', 'regime']);
});

test('applyIssuerPatch: sandbox/ambienteFiscal equal are ignored, different refuse 422 AMBIENTE_IMUTAVEL', (t) => {
  const current = anIssuerRecord();
  t.deepEqual(applyIssuerPatch(current, { ambienteFiscal: 2, sandbox: false }).profile, current.profile);
  t.deepEqual(refusal(() => applyIssuerPatch(current, { ambienteFiscal: 1 })), { type: 'AMBIENTE_IMUTAVEL', code: 422, message: 'ambienteFiscal não pode ser alterado por esta rota (atual: 2).', data: { ambienteFiscal: 2 } });
  t.like(refusal(() => applyIssuerPatch(current, { sandbox: true })), { type: 'AMBIENTE_IMUTAVEL', code: 422, data: { sandbox: false } });
  // A malformed value is a 400 before the 422.
  t.like(refusal(() => applyIssuerPatch(current, { ambienteFiscal: 3 })), { type: 'VALIDATION_ERROR' });
});
