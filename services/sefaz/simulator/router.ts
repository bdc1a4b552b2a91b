import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A tiny router for the simulator: the NF-e SOAP services are one family of routes; the NFS-e
 * (Sefin Nacional REST, e.g. POST /SefinNacional/nfse) registers its own family with `add` —
 * an addition, not a rewrite.
 */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  /** The request body, read once (limit applies). */
  body(): Promise<string>;
}

export interface Route {
  method: string;
  pattern: RegExp;
  /** Names of the pattern's capture groups, in order. */
  keys: string[];
  handler(ctx: RouteContext): Promise<void>;
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: RegExp, keys: string[], handler: Route['handler']): this {
    this.routes.push({ method, pattern, keys, handler });
    return this;
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | null {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      route.keys.forEach((k, i) => { if (m[i + 1] !== undefined) params[k] = m[i + 1]!; });
      return { route, params };
    }
    return null;
  }
}

export function readBody(req: IncomingMessage, limit = 5 * 1024 * 1024): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) { reject(new Error('body too large')); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
