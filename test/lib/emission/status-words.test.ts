import test from 'ava';
import { statusInWords } from '../../../lib/emission/status-words.js';
import { DOCUMENT_STATUSES } from '../../../lib/emission/state.js';
import { NFSE_STATUSES } from '../../../lib/emission/nfse/state.js';
import { FISCAL_EVENT_STATUSES, checkCancelable, checkCorrectable } from '../../../lib/emission/fiscal-events.js';
import { INUTILIZACAO_STATUSES } from '../../../lib/emission/inutilizacao.js';

test('statusInWords has Portuguese words for every document, NFS-e, event and inutilização status', (t) => {
  for (const s of [...DOCUMENT_STATUSES, ...NFSE_STATUSES, ...FISCAL_EVENT_STATUSES, ...INUTILIZACAO_STATUSES]) {
    t.notRegex(statusInWords(s), /[A-Z]{3,}/, s);
    t.notRegex(statusInWords(s, 'f'), /[A-Z]{3,}/, s);
  }
  t.is(statusInWords('REJECTED'), 'rejeitado');
  t.is(statusInWords('HOMOLOGATED', 'f'), 'homologada');
  t.is(statusInWords('NOVO'), 'na situação NOVO');
});

test('checkCancelable and checkCorrectable name the status in words, never the English token', (t) => {
  const cancel = t.throws(() => checkCancelable('REJECTED'));
  t.is(cancel?.message, 'Documento rejeitado não pode ser cancelado: só um documento autorizado.');
  const cce = t.throws(() => checkCorrectable('CANCELADA'));
  t.is(cce?.message, 'Documento cancelado não aceita carta de correção: só uma NF-e autorizada.');
});
