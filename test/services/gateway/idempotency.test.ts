import test from 'ava';
import { isReplayable } from '../../../services/gateway/idempotency.js';

test('isReplayable keeps deterministic answers and never a passing moment or a 5xx', (t) => {
  t.true(isReplayable(200));
  t.true(isReplayable(422, 'DOCUMENTO_NAO_CANCELAVEL'));
  t.true(isReplayable(409, 'FAIXA_JA_INUTILIZADA'));
  for (const code of ['DOCUMENTO_EM_TRANSMISSAO', 'IDEMPOTENCIA_EM_ANDAMENTO', 'EVENTO_EM_TRANSMISSAO', 'EVENTO_PENDENTE']) t.false(isReplayable(409, code), code);
  t.false(isReplayable(503, 'AUTORIDADE_INDISPONIVEL'));
});
