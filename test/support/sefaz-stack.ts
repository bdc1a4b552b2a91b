import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import https from 'node:https';
import type { ServiceSchema } from 'moleculer';
import { createA1, createCa, type A1 } from './certificates.js';
import { startStack, type Stack } from './stack.js';
import { ManualClock } from '../../services/shared/clock.js';
import type { SigningMaterial } from '../../lib/issuer/types.js';
import type { SefazSimulator } from '../../services/sefaz/simulator/server.js';
import { soap12 } from '../../lib/sefaz/soap.js';
import type { SefazService } from '../../lib/sefaz/services.js';
import { postSoap } from '../../services/sefaz/http-client.js';

/**
 * A node running the sefaz service (with its embedded simulator) and a test-only `v1.issuer`
 * that serves A1 material made here. The simulator trusts the test CA for client certificates.
 */
export interface SefazStack {
  stack: Stack;
  clock: ManualClock;
  ca: ReturnType<typeof createCa>;
  issuers: Map<string, A1>;
  addIssuer(id: string, a1: A1): void;
  call<T = any>(action: string, params: Record<string, unknown>): Promise<T>;
  simulator: SefazSimulator;
  fault(spec: Record<string, unknown>): Promise<{ status: number; body: any }>;
  clearFaults(): Promise<void>;
  /** POSTs a raw nfeDadosMsg to the simulator as `issuer` (bypasses the client's own XSD check). */
  rawPost(service: SefazService, payload: string, issuer: A1): Promise<string>;
}

export async function startSefazStack(env: Record<string, string> = {}): Promise<SefazStack> {
  const ca = createCa();
  const dir = mkdtempSync(join(tmpdir(), 'sefaz-ca-'));
  writeFileSync(join(dir, 'client-ca.pem'), ca.certPem);
  const issuers = new Map<string, A1>();
  const IssuerStub: ServiceSchema = {
    name: 'issuer',
    version: 1,
    actions: {
      signingMaterial: {
        visibility: 'public',
        handler(ctx: any): SigningMaterial {
          const a1 = issuers.get(ctx.params.issuerId);
          if (!a1) throw new Error(`no test issuer ${ctx.params.issuerId}`);
          return { issuerId: ctx.params.issuerId, fingerprint: a1.certPem.slice(-60, -30), keyPem: a1.keyPem, certPem: a1.certPem, chainPem: [], notAfter: '2099-01-01' };
        },
      },
    },
  };
  const clock = new ManualClock(new Date());
  const stack = await startStack({
    clock,
    nodes: [{ services: ['sefaz'], extra: [IssuerStub] }],
    env: {
      SIMULATOR_CLIENT_CA_FILE: join(dir, 'client-ca.pem'),
      SEFAZ_CONNECT_TIMEOUT_MS: '1200',
      SEFAZ_READ_TIMEOUT_MS: '4000',
      SEFAZ_RETRY_DELAY_MS: '10',
      SEFAZ_CONSULT_RETRIES: '1',
      SEFAZ_BREAKER_THRESHOLD: '3',
      SEFAZ_BREAKER_COOLDOWN_MS: '60000',
      ...env,
    },
  });
  const broker = stack.nodes[0]!;
  const simulator = (broker.getLocalService({ name: 'sefaz', version: 1 }) as any).simulator as SefazSimulator;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(simulator.adminUrl + path, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: await res.json() };
  };
  return {
    stack, clock, ca, issuers, simulator,
    addIssuer: (id, a1) => { issuers.set(id, a1); },
    call: (action, params) => broker.call(action, params),
    fault: (spec) => admin('POST', '/__admin/faults', spec),
    clearFaults: async () => { await admin('DELETE', '/__admin/faults'); },
    async rawPost(service, payload, issuer) {
      const agent = new https.Agent({ key: issuer.keyPem, cert: issuer.certPem, ca: [simulator.caPem] });
      const soap = soap12(service, payload);
      const out = await postSoap({ url: `${simulator.url}/ws/SP/${service}.asmx`, agent, body: soap.body, contentType: soap.contentType, connectTimeoutMs: 3000, readTimeoutMs: 5000 });
      agent.destroy();
      if (!out.ok) throw new Error(`${out.reason}: ${out.detail}`);
      return out.body;
    },
  };
}

export { createA1 };
