import test from 'ava';
import { ruleMessage, ruleText } from '../../../../lib/sefin/simulator/messages.js';

test('ruleText reads the official texts of Anexo VI (reception and DPS/NFS-e rules)', (t) => {
  t.is(ruleText('E0037'), 'O código do município emissor informado na DPS é inexistente no cadastro de convênio municipal do sistema nacional.');
  t.is(ruleText('E0014'), 'Conjunto de Série, Número, Código do Município Emissor e CNPJ/CPF informado nesta DPS já existe em uma NFS-e gerada a partir de uma DPS enviada anteriormente.');
  t.is(ruleText('E1235'), 'Falha no esquema XML do DF-e.');
  t.is(ruleText('E1209'), 'Certificado de Transmissão sem CNPJ ou CPF.');
});

test('ruleMessage carries an optional Complemento; an unknown code is a bug and throws', (t) => {
  t.deepEqual(ruleMessage('E0714'), { codigo: 'E0714', descricao: 'Arquivo enviado com erro na assinatura.' });
  t.deepEqual(ruleMessage('E0714', 'digest mismatch'), { codigo: 'E0714', descricao: 'Arquivo enviado com erro na assinatura.', complemento: 'digest mismatch' });
  t.throws(() => ruleText('E9998'), { message: /unknown Sefin rule E9998/ });
});
