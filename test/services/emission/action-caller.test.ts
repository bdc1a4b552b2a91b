import test from 'ava';
import { Errors } from 'moleculer';
import type { ActionCaller } from '../../../services/emission/action-caller.js';
import { authorize, consult, sendEvent } from '../../../services/emission/ports.js';
import { consultDps, submitDps } from '../../../services/emission/nfse/sefin-ports.js';

/**
 * How a transmission port reads a call that threw: only "no sefaz node took it" certainly sent
 * nothing (`failed`, safe to send again); anything else may have reached the authority (`unknown`,
 * consulted before anything is resent). NF-e and NFS-e share the one mapping.
 */
const throwing = (err: unknown): ActionCaller => ({ call: async () => { throw err; } });
const target = { issuerId: 'i-1', ambiente: 2 as const };
const note = { issuerId: 'i-1', uf: 'SP', model: '55' as const, ambiente: 2 as const, signedNfeXml: '<NFe/>', accessKey: '3'.repeat(44) };
const notSent = { kind: 'failed', reason: 'connect', detail: 'serviço sefaz indisponível' };

test('no sefaz node (not found, not available) certainly sent nothing: failed, for NF-e and NFS-e alike', async (t) => {
  for (const err of [new Errors.ServiceNotFoundError({ action: 'v1.sefaz.authorize' }), new Errors.ServiceNotAvailableError({ action: 'v1.sefaz.authorize' })]) {
    t.deepEqual(await authorize(throwing(err), note), notSent);
    t.deepEqual(await submitDps(throwing(err), target, '<DPS/>', 'DPS1'), notSent);
  }
  // As it arrives from another node: the error's fields, not its class.
  t.deepEqual(await authorize(throwing({ type: 'SERVICE_NOT_FOUND', message: 'x' }), note), notSent);
  t.deepEqual(await submitDps(throwing({ name: 'ServiceNotAvailableError' }), target, '<DPS/>', 'DPS1'), notSent);
});

test('a timeout, a lost node or anything else may have reached the authority: unknown, with its message', async (t) => {
  const timeout = new Errors.RequestTimeoutError({ action: 'v1.sefaz.authorize', nodeID: 'n2' });
  const unknown = { kind: 'unknown', reason: 'timeout-after-send', detail: timeout.message };
  t.deepEqual(await authorize(throwing(timeout), note), unknown);
  t.deepEqual(await submitDps(throwing(timeout), target, '<DPS/>', 'DPS1'), unknown);
  t.deepEqual(await sendEvent(throwing(timeout), { ...note, cnpj: '11222333000181', sequence: 1, type: 'cancelamento' }), unknown);
  // A thrown value that is not an error is still an answer of its own, never a crash of the port.
  t.deepEqual(await authorize(throwing('socket hang up'), note), { kind: 'unknown', reason: 'timeout-after-send', detail: 'socket hang up' });
  t.deepEqual(await authorize(throwing(null), note), { kind: 'unknown', reason: 'timeout-after-send', detail: 'null' });
});

test('a consultation that throws sent nothing that changes state: failed, with the message', async (t) => {
  const timeout = new Errors.RequestTimeoutError({ action: 'v1.sefaz.consult', nodeID: 'n2' });
  t.deepEqual(await consult(throwing(timeout), { issuerId: 'i-1', uf: 'SP', model: '55', ambiente: 2, accessKey: '3'.repeat(44) }), { kind: 'failed', reason: 'connect', detail: timeout.message });
  t.deepEqual(await consultDps(throwing('down'), target, 'DPS1'), { kind: 'failed', reason: 'connect', detail: 'down' });
});

test('an answer passes through as the authority gave it', async (t) => {
  const answer = { kind: 'authorized', cStat: 100 };
  const caller: ActionCaller = { call: async <T>() => answer as T };
  t.is(await authorize(caller, note) as unknown, answer);
});
