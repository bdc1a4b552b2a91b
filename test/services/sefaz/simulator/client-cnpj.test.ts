import test from 'ava';
import { X509Certificate } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { clientCnpjOf } from '../../../../services/sefaz/simulator/client-cnpj.js';
import { createA1, createCa } from '../../../support/certificates.js';

const ca = createCa();
/** A socket whose client certificate is whatever `current` holds (a renegotiation, say). */
function socketWith(current: { pem: string | null }): TLSSocket {
  return { getPeerX509Certificate: () => (current.pem ? new X509Certificate(current.pem) : undefined) } as unknown as TLSSocket;
}

test('clientCnpjOf answers the CNPJ of the client certificate, again from its cache, and of each certificate its own', (t) => {
  const first = createA1(ca, { cnpj: '12345678000195' });
  const second = createA1(ca, { cnpj: '98765432000198' });
  const current = { pem: first.certPem as string | null };
  const socket = socketWith(current);
  t.is(clientCnpjOf(socket), '12345678000195');
  t.is(clientCnpjOf(socket), '12345678000195');
  current.pem = second.certPem;
  t.is(clientCnpjOf(socket), '98765432000198');
  t.is(clientCnpjOf(socketWith({ pem: first.certPem })), '12345678000195');
});

test('clientCnpjOf answers null without a client certificate', (t) => {
  t.is(clientCnpjOf(socketWith({ pem: null })), null);
});
