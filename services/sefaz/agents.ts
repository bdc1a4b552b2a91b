import https from 'node:https';
import type { SigningMaterial } from '../../lib/issuer/types.js';

export interface Trust {
  id: string;
  ca: string[] | undefined;
}

/**
 * One keep-alive agent per issuer certificate and trust store: connections to the authority are
 * reused across calls of the same issuer, and a replaced certificate (new fingerprint) gets a new
 * agent while the old one is closed. `maxSockets` matches the bulkhead's concurrency per lane
 * (services/sefaz/bulkhead.ts), so calls wait in that queue, not in the agent's.
 */
export class AgentPool {
  private readonly agents = new Map<string, https.Agent>();

  constructor(private readonly maxSockets = 8) {}

  /** The agent's key: one per client certificate and trust store (also the bulkhead lane). */
  static keyOf(material: SigningMaterial, trust: Trust): string {
    return `${material.issuerId}|${material.fingerprint}|${trust.id}`;
  }

  get(material: SigningMaterial, trust: Trust): https.Agent {
    const key = AgentPool.keyOf(material, trust);
    let agent = this.agents.get(key);
    if (!agent) {
      for (const [k, a] of this.agents) {
        if (k.startsWith(`${material.issuerId}|`) && !k.startsWith(`${material.issuerId}|${material.fingerprint}|`)) { a.destroy(); this.agents.delete(k); }
      }
      agent = new https.Agent({
        keepAlive: true,
        maxSockets: this.maxSockets,
        key: material.keyPem,
        cert: [material.certPem, ...material.chainPem].join('\n'),
        ...(trust.ca ? { ca: trust.ca } : {}),
        rejectUnauthorized: true,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Any agent of any issuer for this trust store (status checks without an issuer). */
  any(trustId: string): { key: string; agent: https.Agent } | null {
    for (const [key, agent] of this.agents) if (key.endsWith(`|${trustId}`)) return { key, agent };
    return null;
  }

  destroyAll(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }
}
