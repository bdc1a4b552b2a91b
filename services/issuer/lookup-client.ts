import { DomainError } from '../../lib/errors/index.js';

/**
 * HTTP client of the CNPJ/CPF lookup provider (config.lookupProviderUrl, or the built-in
 * simulator). Provider protocol:
 *   GET {base}/cnpj/{cnpj} → 200 { cnpj, razaoSocial, nomeFantasia?, situacao, uf?, municipio?, codigoMunicipio?, cnae?, abertura? } | 404
 *   GET {base}/cpf/{cpf}   → 200 { cpf, nome, situacao } | 404
 * Mapping (API.md, queries): 404 → NOT_FOUND; other status or a body that is not that shape →
 * BAD_GATEWAY; timeout or connection failure → SERVICE_UNAVAILABLE.
 */
export const LOOKUP_TIMEOUT_MS = 3_000;

export interface CnpjLookup {
  cnpj: string;
  razaoSocial: string;
  nomeFantasia: string | null;
  situacao: string;
  uf: string | null;
  municipio: string | null;
  codigoMunicipio: string | null;
  cnae: string | null;
  abertura: string | null;
}

export interface CpfLookup {
  cpf: string;
  nome: string;
  situacao: string;
}

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const optStr = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
  } catch {
    throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'Provedor de consulta indisponível ou sem resposta.');
  }
  let text: string;
  try { text = await res.text(); } catch {
    throw new DomainError('SERVICE_UNAVAILABLE', undefined, 'Provedor de consulta interrompeu a resposta.');
  }
  if (res.status === 404) throw new DomainError('NOT_FOUND', undefined, 'Documento não encontrado no cadastro consultado.');
  if (res.status !== 200) throw new DomainError('BAD_GATEWAY', { statusProvedor: res.status }, 'Provedor de consulta respondeu com erro.');
  try { return JSON.parse(text); } catch {
    throw new DomainError('BAD_GATEWAY', undefined, 'Provedor de consulta respondeu algo que não é JSON.');
  }
}

function badShape(): DomainError {
  return new DomainError('BAD_GATEWAY', undefined, 'Resposta do provedor de consulta fora do formato esperado.');
}

export async function lookupCnpj(base: string, cnpj: string, timeoutMs = LOOKUP_TIMEOUT_MS): Promise<CnpjLookup> {
  const body = await getJson(`${base.replace(/\/$/, '')}/cnpj/${encodeURIComponent(cnpj)}`, timeoutMs) as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || body.cnpj !== cnpj || !str(body.razaoSocial) || !str(body.situacao)) throw badShape();
  return {
    cnpj, razaoSocial: body.razaoSocial, nomeFantasia: optStr(body.nomeFantasia), situacao: body.situacao,
    uf: optStr(body.uf), municipio: optStr(body.municipio), codigoMunicipio: optStr(body.codigoMunicipio),
    cnae: optStr(body.cnae), abertura: optStr(body.abertura),
  };
}

export async function lookupCpf(base: string, cpf: string, timeoutMs = LOOKUP_TIMEOUT_MS): Promise<CpfLookup> {
  const body = await getJson(`${base.replace(/\/$/, '')}/cpf/${encodeURIComponent(cpf)}`, timeoutMs) as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || body.cpf !== cpf || !str(body.nome) || !str(body.situacao)) throw badShape();
  return { cpf, nome: body.nome, situacao: body.situacao };
}
