import test from 'ava';
import { checkNfce, checkNfe } from '../../../../lib/nfe/check.js';
import type { NfeBody } from '../../../../lib/nfe/types.js';
import { aValidNfceBody, aValidNfeBody, anIssuer } from '../../../support/nfe-factories.js';
import { throwsCode } from '../../../support/domain-errors.js';

/** lib/nfe/rules/identificadores.ts through checkNfe/checkNfce: the parties' CPF/CNPJ and IE. */
const base = aValidNfeBody();
const withDest = (dest: Partial<NfeBody['destinatario']>) => aValidNfeBody({ destinatario: { ...base.destinatario, ...dest } });
const contributor = (ie: string) => withDest({ cnpjCpf: '11444777000161', nome: 'Cliente SA', indicadorIE: 1, ie });
const carrier = (transportador: NonNullable<NfeBody['transporte']>['transportador']) => aValidNfeBody({ transporte: { modFrete: 0, transportador } });

test('checkNfe refuses a recipient CPF with a wrong check digit (CPF_INVALIDO, issue 22 example)', (t) => {
  const err = throwsCode(t, () => checkNfe(withDest({ cnpjCpf: '52998224726' }), anIssuer()), 'CPF_INVALIDO');
  t.deepEqual(err.data, { campo: 'destinatario.cnpjCpf', valor: '52998224726' });
  t.is(err.message, "CPF inválido em 'destinatario.cnpjCpf': dígitos verificadores não conferem.");
});

test('checkNfe refuses a recipient CNPJ with a wrong check digit (CNPJ_INVALIDO, issue 22 example)', (t) => {
  const err = throwsCode(t, () => checkNfe(withDest({ cnpjCpf: '11444777000163', indicadorIE: 9 }), anIssuer()), 'CNPJ_INVALIDO');
  t.deepEqual(err.data, { campo: 'destinatario.cnpjCpf', valor: '11444777000163' });
  t.is(err.message, "CNPJ inválido em 'destinatario.cnpjCpf': dígitos verificadores não conferem.");
});

test('checkNfe accepts a valid alphanumeric CNPJ recipient', (t) => {
  t.notThrows(() => checkNfe(withDest({ cnpjCpf: '12ABC34501DE35', indicadorIE: 9 }), anIssuer()));
});

test('checkNfe refuses ie "123" for an SP contributor (IE_INVALIDA, issue 22 example)', (t) => {
  const err = throwsCode(t, () => checkNfe(contributor('123'), anIssuer()), 'IE_INVALIDA');
  t.deepEqual(err.data, { campo: 'destinatario.ie', valor: '123', uf: 'SP', motivo: 'formato ou dígito verificador não confere com as regras de SP' });
  t.is(err.message, "Inscrição estadual inválida em 'destinatario.ie': formato ou dígito verificador não confere com as regras de SP.");
});

test('checkNfe checks the recipient IE against the address UF: a valid RJ number in an SP address refuses', (t) => {
  throwsCode(t, () => checkNfe(contributor('99999993'), anIssuer()), 'IE_INVALIDA');
  t.notThrows(() => checkNfe(contributor('110042490114'), anIssuer()));
});

test('checkNfe refuses ISENTO as the recipient IE: an exempt recipient is indicadorIE 2 without ie', (t) => {
  const err = throwsCode(t, () => checkNfe(contributor('ISENTO'), anIssuer()), 'IE_INVALIDA');
  t.like(err.data, { campo: 'destinatario.ie', valor: 'ISENTO' });
  t.regex(err.message, /indicadorIE 2/);
});

test('checkNfe refuses a carrier CNPJ or CPF with a wrong check digit, naming the carrier field', (t) => {
  const cnpj = throwsCode(t, () => checkNfe(carrier({ cnpjCpf: '11444777000163', nome: 'Transportes' }), anIssuer()), 'CNPJ_INVALIDO');
  t.deepEqual(cnpj.data, { campo: 'transporte.transportador.cnpjCpf', valor: '11444777000163' });
  const cpf = throwsCode(t, () => checkNfe(carrier({ cnpjCpf: '52998224726', nome: 'Joao Frete' }), anIssuer()), 'CPF_INVALIDO');
  t.deepEqual(cpf.data, { campo: 'transporte.transportador.cnpjCpf', valor: '52998224726' });
});

test('checkNfe checks the carrier IE against its UF and accepts ISENTO there (transporta/IE is TIeDest)', (t) => {
  const err = throwsCode(t, () => checkNfe(carrier({ cnpjCpf: '11444777000161', ie: '111222333444', uf: 'SP' }), anIssuer()), 'IE_INVALIDA');
  t.like(err.data, { campo: 'transporte.transportador.ie', uf: 'SP' });
  t.notThrows(() => checkNfe(carrier({ cnpjCpf: '11444777000161', ie: '110042490114', uf: 'SP' }), anIssuer()));
  t.notThrows(() => checkNfe(carrier({ cnpjCpf: '11444777000161', ie: 'ISENTO' }), anIssuer()));
});

test('checkNfe refuses a carrier IE without the carrier UF to check it against', (t) => {
  const err = throwsCode(t, () => checkNfe(carrier({ ie: '110042490114' }), anIssuer()), 'IE_INVALIDA');
  t.deepEqual(err.data, { campo: 'transporte.transportador.ie', valor: '110042490114', motivo: 'informe a UF do titular para conferir a inscrição' });
});

test("checkNfe and checkNfce refuse an issuer whose registered IE is not valid for its UF, pointing to the issuer's record", (t) => {
  const issuer = anIssuer({ ie: '123456789' });
  for (const run of [() => checkNfe(aValidNfeBody(), issuer), () => checkNfce(aValidNfceBody(), issuer)]) {
    const err = throwsCode(t, run, 'IE_INVALIDA');
    t.deepEqual(err.data, { campo: 'emitente.ie', valor: '123456789', uf: 'SP', motivo: 'inscrição do cadastro do emissor' });
    t.is(err.message, "Inscrição estadual do emissor (123456789) inválida para SP: corrija 'ie' no cadastro do emissor (PATCH /v1/companies/{id}).");
  }
  t.notThrows(() => checkNfe(aValidNfeBody(), anIssuer({ ie: 'ISENTO' })));
});

test('checkNfe and checkNfce leave an IE the issuer never registered to the preflight (CADASTRO_EMISSOR_INCOMPLETO lists it with the rest)', (t) => {
  t.notThrows(() => checkNfe(aValidNfeBody(), anIssuer({ ie: '' })));
  t.notThrows(() => checkNfce(aValidNfceBody(), anIssuer({ ie: '' })));
});

test('checkNfce refuses an identified consumer whose destCPF fails its check digits', (t) => {
  const cpf = throwsCode(t, () => checkNfce(aValidNfceBody({ destCPF: '52998224726' }), anIssuer()), 'CPF_INVALIDO');
  t.deepEqual(cpf.data, { campo: 'destCPF', valor: '52998224726' });
  const cnpj = throwsCode(t, () => checkNfce(aValidNfceBody({ destCPF: '11444777000163' }), anIssuer()), 'CNPJ_INVALIDO');
  t.deepEqual(cnpj.data, { campo: 'destCPF', valor: '11444777000163' });
  t.notThrows(() => checkNfce(aValidNfceBody({ destCPF: '52998224725' }), anIssuer()));
});
