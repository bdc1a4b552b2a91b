import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidCnpj, isValidCpf } from '../../lib/issuer/documents.js';
import { anyMunicipalityOf } from '../../lib/issuer/municipalities.js';
import { UFS } from '../../lib/issuer/schema.js';

/**
 * The built-in lookup provider, started in-process when config.lookupProviderUrl is null so
 * GET /v1/queries/cnpj|cpf work out of the box. It speaks the provider protocol of
 * ./lookup-client.ts and answers from a deterministic fake registry:
 * - a document whose character values (ASCII − 48) sum to a multiple of 7 does not exist (404);
 * - any other valid CNPJ is an active company ("EMPRESA SIMULADA <root> LTDA") in a UF picked by
 *   the SHA-256 of the CNPJ, with a municipality of that UF from the IBGE table;
 * - any other valid CPF is "PESSOA SIMULADA <last 4 digits>", situação REGULAR;
 * - a malformed document is 400 (the route checks digits before calling, so never seen there).
 */
export function charSum(doc: string): number {
  let s = 0;
  for (const ch of doc) s += ch.charCodeAt(0) - 48;
  return s;
}

export function simulatedCnpj(cnpj: string): Record<string, unknown> | null {
  if (charSum(cnpj) % 7 === 0) return null;
  const h = createHash('sha256').update(cnpj).digest();
  const uf = UFS[h[0]! % UFS.length]!;
  const m = anyMunicipalityOf(uf);
  const year = 1990 + (h[1]! % 35);
  const month = String(1 + (h[2]! % 12)).padStart(2, '0');
  return {
    cnpj,
    razaoSocial: `EMPRESA SIMULADA ${cnpj.slice(0, 8)} LTDA`,
    nomeFantasia: `SIMULADA ${cnpj.slice(0, 4)}`,
    situacao: 'ATIVA',
    uf,
    municipio: m?.nome ?? null,
    codigoMunicipio: m?.codigo ?? null,
    cnae: '6201501',
    abertura: `${year}-${month}-01`,
  };
}

export function simulatedCpf(cpf: string): Record<string, unknown> | null {
  if (charSum(cpf) % 7 === 0) return null;
  return { cpf, nome: `PESSOA SIMULADA ${cpf.slice(-4)}`, situacao: 'REGULAR' };
}

export async function startLookupSimulator(host = '127.0.0.1'): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const m = (req.url ?? '').match(/^\/(cnpj|cpf)\/([0-9A-Za-z]+)$/);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' || !m) return send(404, { erro: 'rota desconhecida' });
    const [, kind, doc] = m as unknown as [string, 'cnpj' | 'cpf', string];
    if (kind === 'cnpj' ? !isValidCnpj(doc) : !isValidCpf(doc)) return send(400, { erro: 'documento inválido' });
    const found = kind === 'cnpj' ? simulatedCnpj(doc) : simulatedCpf(doc);
    return found ? send(200, found) : send(404, { erro: 'não encontrado' });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
