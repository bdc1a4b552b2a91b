import test from 'ava';
import { checkDacceSource } from '../../../lib/danfe/dacce-source.js';

test('checkDacceSource gives the procEventoNFe of a registered CC-e', (t) => {
  t.is(checkDacceSource({ type: 'carta-correcao', status: 'REGISTERED' }, '<procEventoNFe/>'), '<procEventoNFe/>');
});

test('checkDacceSource answers EVENTO_SEM_DACCE (409) for a cancellation, whatever its status', (t) => {
  for (const status of ['REGISTERED', 'PENDING'] as const) {
    t.like(t.throws(() => checkDacceSource({ type: 'cancelamento', status }, '<procEventoNFe/>')), {
      name: 'DomainError', type: 'EVENTO_SEM_DACCE', code: 409, data: { tipo: 'cancelamento' }, message: 'Só a carta de correção tem DACCe; este evento é de outro tipo.',
    });
  }
});

test('checkDacceSource answers CONFLICT (409) for a CC-e not registered', (t) => {
  for (const status of ['PENDING', 'REJECTED'] as const) {
    t.like(t.throws(() => checkDacceSource({ type: 'carta-correcao', status }, null)), {
      type: 'CONFLICT', code: 409, data: { status }, message: `DACCe indisponível para carta de correção em ${status}: há DACCe só depois do registro pela autoridade.`,
    });
  }
});
