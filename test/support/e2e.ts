import { issueSandboxA1 } from '../../services/sefaz/simulator/sandbox-ca.js';
import { aCompleteIssuer } from '../services/issuer/support.js';
import type { Stack } from './stack.js';
import { createPartnerWithKey, type PartnerWithKey } from './identity.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

/**
 * An issuer made the way an integrator makes one: `POST /v1/companies`, then an A1 issued by the
 * simulator's sandbox CA for the issuer's CNPJ, uploaded over HTTP. Set-up, not the subject of a
 * test: any refusal throws. `issuer` overrides fields of aCompleteIssuer (CRT 3 by default).
 * Works on anything that answers HTTP and knows the simulator's directory (a Stack, a Cluster).
 */
export async function companyWithA1(stack: Pick<Stack, 'request'> & { config: { sefaz: { simulatorDir: string } } }, headers: Record<string, string>, issuer: Record<string, unknown> = {}): Promise<{ issuerId: string; cnpj: string }> {
  const company = await stack.request('POST', '/v1/companies', { headers, body: aCompleteIssuer({ crt: 3, ...issuer }) });
  if (company.status !== 201) throw new Error(`company: ${company.status} ${company.text}`);
  const { issuerId, cnpj } = company.body.data as { issuerId: string; cnpj: string };
  const a1 = issueSandboxA1(stack.config.sefaz.simulatorDir, { cnpj, password: 'senha-do-a1' });
  const cert = await stack.request('POST', `/v1/companies/${issuerId}/certificate`, { headers, body: { pfxBase64: a1.pfxBase64, password: a1.password } });
  if (cert.status !== 201) throw new Error(`certificate: ${cert.status} ${cert.text}`);
  return { issuerId, cnpj };
}

/** The CSC pair the simulator accepts for NFC-e QR codes: issuers that emit NFC-e need it. */
export const SANDBOX_CSC = { csc: 'CSC0TESTE0SANDBOX0001', cscId: '000001' } as const;

/** A local webhook receiver set as the partner's URL for every event, keeping the secret to verify with. */
export async function subscribedReceiver(stack: Stack, headers: Record<string, string>): Promise<Receiver> {
  const receiver = await startReceiver();
  const hook = await stack.request('PATCH', '/v1/webhooks/config', { headers, body: { webhookUrl: receiver.url, events: [] } });
  if (hook.status !== 200) {
    await receiver.close();
    throw new Error(`webhook config: ${hook.status} ${hook.text}`);
  }
  receiver.secret = hook.body.data.webhookSecret;
  return receiver;
}

/** A SCALE partner with a live API key and one issuer with its A1: who every e2e test emits as. */
export async function integratorWithA1(stack: Stack, issuer: Record<string, unknown> = {}): Promise<{ partner: PartnerWithKey; headers: Record<string, string>; issuerId: string }> {
  const partner = await createPartnerWithKey(stack, { plan: 'SCALE' });
  const headers = { 'x-api-key': partner.apiKey };
  const { issuerId } = await companyWithA1(stack, headers, issuer);
  return { partner, headers, issuerId };
}
