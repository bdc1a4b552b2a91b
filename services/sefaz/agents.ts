import https from 'node:https';
import type { SigningMaterial } from '../../lib/issuer/types.js';

/**
 * One keep-alive agent per issuer certificate and trust store: connections to the authority are
 * reused across calls of the same issuer, and a replaced certificate (new fingerprint) gets a new
 * agent while the old one is closed.
 */
export class AgentPool {
  private readonly agents = new Map<string, https.Agent>();

  get(material: SigningMaterial, trust: { id: string; ca: string[] | undefined }): https.Agent {
    const key = `${material.issuerId}|${material.fingerprint}|${trust.id}`;
    let agent = this.agents.get(key);
    if (!agent) {
      for (const [k, a] of this.agents) {
        if (k.startsWith(`${material.issuerId}|`) && !k.startsWith(`${material.issuerId}|${material.fingerprint}|`)) { a.destroy(); this.agents.delete(k); }
      }
      agent = new https.Agent({
        keepAlive: true,
        maxSockets: 8,
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
  any(trustId: string): https.Agent | null {
    for (const [k, a] of this.agents) if (k.endsWith(`|${trustId}`)) return a;
    return null;
  }

  destroyAll(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }
}
