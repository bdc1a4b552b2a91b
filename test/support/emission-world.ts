/**
 * TEST ONLY. Stand-ins for v1.issuer and v1.sefaz in the emission service's tests, with
 * controllable behaviour, plus a tiny "authority" memory so a timeout after processing can really
 * have authorized the note (the consult then finds it). The real services are built elsewhere;
 * these implement only the actions emission calls, with the same names and shapes.
 */
import { withCnpjCheckDigits } from '../../lib/issuer/documents.js';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { ServiceSchema } from 'moleculer';
import { DomainError } from '../../lib/errors/index.js';
import type { IssuerSnapshot, SigningMaterial } from '../../lib/issuer/types.js';
import type { AuthorizationResult, ConsultResult } from '../../lib/sefaz/results.js';
import { FakeAuthService, fakeCallerKey } from './fake-auth.js';
import { startStack, type Stack } from './stack.js';
import type { Clock } from '../../services/shared/clock.js';

export type AuthorizeMode =
  | 'authorize'
  | { reject: { cStat: number; xMotivo: string } }
  | { deny: { cStat: number; xMotivo: string } }
  | 'fail-before-send'
  | 'timeout-after-processing' // the authority authorized it; the answer was lost
  | 'timeout-before-processing' // sent, but the authority never registered it
  | 'hang-after-processing' // registered, and the answer never comes (until release())
  | { hold: PlainAuthorizeMode }; // in flight until release(), then answers as `hold` (a slow authority)

type PlainAuthorizeMode = Exclude<AuthorizeMode, { hold: unknown }>;

export type ConsultMode = 'lookup' | 'fail';

/** What the availability monitor stand-in says of every UF: confirmed up or down, no view yet, or not answering. */
export type MonitorMode = 'up' | 'down' | 'unknown' | 'unavailable';

interface IssuerEntry {
  snapshot: IssuerSnapshot;
  certificate: boolean;
  /** Fields the issuer record lacks (CADASTRO_EMISSOR_INCOMPLETO camposFaltando). */
  missing: string[];
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const KEY_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/**
 * One node with the real gateway and emission service, and this world's stand-ins for auth, issuer
 * and sefaz (and the availability monitor when asked): the emission service tests' stack.
 */
export function startEmissionStack(world: EmissionWorld, clock: Clock, opts: { monitor?: boolean } = {}): Promise<Stack> {
  const standIns = [FakeAuthService, world.issuerService(), world.sefazService(), ...(opts.monitor ? [world.monitorService()] : [])];
  return startStack({ clock, nodes: [{ services: ['api-gateway', 'emission'], extra: standIns }] });
}

/** A partner of its own (fresh id) with a FakeAuthService key: tests sharing a stack never share issuers or numbers. */
export function aFakePartner(keyKind: 'live' | 'test' = 'live'): { partnerId: string; headers: Record<string, string> } {
  const partnerId = `p-${randomUUID()}`;
  return { partnerId, headers: { 'x-api-key': fakeCallerKey({ partnerId, keyKind, rateLimit: 100_000 }) } };
}

/** A one-item note of 21.00 paid in cash, the body the emission service tests start from. */
export function aSmallNote(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { items: [{ codigo: 'P1', descricao: 'Produto um', cfop: '5102', quantidade: 2, valorUnitario: 10.5 }], pagamentos: [{ forma: '01', valor: 21 }], ...over };
}

/**
 * Each world issuer is its own fiscal identity: numbering continues across the issuer rows of one
 * CNPJ (services/emission/fiscal-identity.ts), which real issuers share only one after another.
 */
let cnpjSeq = 0;
function aWorldCnpj(): string {
  return withCnpjCheckDigits(`${String(++cnpjSeq).padStart(8, '0')}0001`);
}

export function anIssuerSnapshot(partnerId: string, over: Partial<IssuerSnapshot> = {}): IssuerSnapshot {
  return {
    id: randomUUID(), partnerId, cnpj: aWorldCnpj(), razaoSocial: 'EMPRESA TESTE LTDA', nomeFantasia: null, ie: '123456789',
    crt: 1, endereco: { logradouro: 'Rua A', numero: '1', bairro: 'Centro', codigoMunicipio: '3550308', municipio: 'São Paulo', uf: 'SP', cep: '01001000' },
    ambienteFiscal: 2, sandbox: false, csc: 'CSC123', cscId: '1', serieNfe: 1, serieNfce: 1, serieNfse: 1,
    valorAproximadoTributosEnabled: false, fiscalBrainEnabled: false, ...over,
  };
}

export class EmissionWorld {
  readonly issuers = new Map<string, IssuerEntry>();
  authorizeMode: AuthorizeMode = 'authorize';
  consultMode: ConsultMode = 'lookup';
  monitorMode: MonitorMode = 'unavailable';
  readonly monitorCalls: { uf: string; ambiente: string }[] = [];
  /** What the authority registered: access key → protocol. */
  readonly authority = new Map<string, string>();
  readonly authorizeCalls: { accessKey: string; signedNfeXml: string; uf: string; ambiente: number }[] = [];
  readonly consultCalls: string[] = [];
  /** issuerId → lookups left before the issuer disappears (an issuer removed after a batch was queued). */
  readonly vanishAfter = new Map<string, number>();
  private hung: (() => void)[] = [];
  private protocolSeq = 135_260_000_000_000;

  addIssuer(partnerId: string, over: Partial<IssuerSnapshot> = {}, opts: { certificate?: boolean; missing?: string[] } = {}): IssuerSnapshot {
    const snapshot = anIssuerSnapshot(partnerId, over);
    this.issuers.set(snapshot.id, { snapshot, certificate: opts.certificate ?? true, missing: opts.missing ?? [] });
    return snapshot;
  }

  removeIssuer(id: string): void {
    this.issuers.delete(id);
  }

  /** Lets hung and held authorizations answer (as a late answer to a node that may be gone). */
  release(): void {
    for (const r of this.hung.splice(0)) r();
  }

  /** Waits until `count` authorizations have reached this stand-in (the last may be held). */
  async authorizeCallsReach(count: number): Promise<void> {
    for (let i = 0; i < 200 && this.authorizeCalls.length < count; i++) await new Promise((r) => setTimeout(r, 25));
    if (this.authorizeCalls.length < count) throw new Error(`authorize calls: ${this.authorizeCalls.length}, expected ${count}`);
  }

  private authorized(accessKey: string, tpAmb: number): AuthorizationResult & ConsultResult {
    let protocol = this.authority.get(accessKey);
    if (!protocol) { protocol = String(this.protocolSeq++); this.authority.set(accessKey, protocol); }
    const receivedAt = '2026-11-22T17:00:00-03:00';
    return {
      kind: 'authorized', cStat: 100, xMotivo: 'Autorizado o uso da NF-e', protocol, receivedAt, digest: 'ZGlnZXN0',
      protNFeXml: `<protNFe versao="4.00"><infProt><tpAmb>${tpAmb}</tpAmb><verAplic>SIM-1.0</verAplic><chNFe>${accessKey}</chNFe><dhRecbto>${receivedAt}</dhRecbto><nProt>${protocol}</nProt><digVal>ZGlnZXN0</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>`,
    } as any;
  }

  issuerService(): ServiceSchema {
    const world = this;
    return {
      name: 'issuer',
      version: 1,
      actions: {
        forEmission(ctx: any) {
          const { partnerId, issuerId, model, keyKind } = ctx.params;
          const own = [...world.issuers.values()].filter((e) => e.snapshot.partnerId === partnerId);
          let entry: IssuerEntry | undefined;
          if (issuerId) {
            entry = own.find((e) => e.snapshot.id === issuerId);
            if (!entry) throw new DomainError('NOT_FOUND', undefined, 'Emissor não encontrado.');
          } else if (own.length === 1) {
            entry = own[0];
          } else if (own.length === 0) {
            throw new DomainError('NOT_FOUND', undefined, 'Nenhum emissor cadastrado.');
          } else {
            throw new DomainError('BAD_REQUEST', undefined, `informe issuerId: sua conta tem ${own.length} emissores`);
          }
          const s = entry!.snapshot;
          const left = world.vanishAfter.get(s.id);
          if (left !== undefined) {
            if (left <= 1) { world.vanishAfter.delete(s.id); world.issuers.delete(s.id); } else world.vanishAfter.set(s.id, left - 1);
          }
          if (keyKind === 'test' && s.ambienteFiscal === 1 && !s.sandbox) throw new DomainError('CHAVE_TESTE_EMISSOR_PRODUCAO');
          // Preflight as the real action: thrown by default, reported with `preflight: 'report'`.
          let refusal: DomainError | null = null;
          if (!entry!.certificate) refusal = new DomainError('CERTIFICADO_AUSENTE');
          else if (entry!.missing.length) refusal = new DomainError('CADASTRO_EMISSOR_INCOMPLETO', { camposFaltando: entry!.missing }, `Cadastro do emissor incompleto: ${entry!.missing.join(', ')}.`);
          else if (model === '65' && (!s.csc || !s.cscId)) refusal = new DomainError('CSC_AUSENTE');
          if (ctx.params.preflight !== 'report') {
            if (refusal) throw refusal;
            return { issuer: s };
          }
          return { issuer: s, preflight: refusal && { type: refusal.type, data: refusal.data ?? null, message: refusal.message } };
        },
        /** As the real v1.issuer.resolve: the partner's issuer and the test-key rule (services/emission/reader.ts). */
        resolve(ctx: any) {
          const entry = world.issuers.get(ctx.params.issuerId);
          if (!entry || entry.snapshot.partnerId !== ctx.params.partnerId) throw new DomainError('NOT_FOUND', undefined, 'Emissor não encontrado.');
          const s = entry.snapshot;
          if (ctx.params.keyKind === 'test' && s.ambienteFiscal === 1 && !s.sandbox) throw new DomainError('CHAVE_TESTE_EMISSOR_PRODUCAO');
          return { issuerId: s.id, cnpj: s.cnpj, ambienteFiscal: s.ambienteFiscal, sandbox: s.sandbox };
        },
        signingMaterial(ctx: any): SigningMaterial {
          const entry = world.issuers.get(ctx.params.issuerId);
          if (!entry?.certificate) throw new DomainError('CERTIFICADO_AUSENTE');
          return { issuerId: entry.snapshot.id, fingerprint: 'fp-test', keyPem: KEY_PEM, certPem: '', chainPem: [], notAfter: '2030-01-01T00:00:00Z' };
        },
      },
    };
  }

  /** v1.contingency-monitor.statusOf as the real one answers it (lib/contingency/availability.ts). */
  monitorService(): ServiceSchema {
    const world = this;
    return {
      name: 'contingency-monitor',
      version: 1,
      actions: {
        statusOf(ctx: any) {
          const { uf, ambiente } = ctx.params;
          world.monitorCalls.push({ uf, ambiente });
          if (world.monitorMode === 'unavailable') throw new Error('monitor store unavailable');
          const status = world.monitorMode === 'unknown' ? null : world.monitorMode;
          return { uf, ambiente, monitored: status !== null, status, confirmedDown: status === 'down' };
        },
      },
    };
  }

  sefazService(): ServiceSchema {
    const world = this;
    return {
      name: 'sefaz',
      version: 1,
      actions: {
        async authorize(ctx: any): Promise<AuthorizationResult> {
          const { accessKey, signedNfeXml, uf, ambiente } = ctx.params;
          world.authorizeCalls.push({ accessKey, signedNfeXml, uf, ambiente });
          let mode = world.authorizeMode;
          if (typeof mode === 'object' && 'hold' in mode) {
            const after = mode.hold;
            await new Promise<void>((r) => world.hung.push(r));
            mode = after;
          }
          if (mode === 'authorize') return world.authorized(accessKey, ambiente);
          if (mode === 'fail-before-send') return { kind: 'failed', reason: 'connect', detail: 'ECONNREFUSED' };
          if (mode === 'timeout-after-processing') { world.authorized(accessKey, ambiente); return { kind: 'unknown', reason: 'timeout-after-send', detail: 'sem resposta em 30 s' }; }
          if (mode === 'timeout-before-processing') return { kind: 'unknown', reason: 'timeout-after-send', detail: 'sem resposta em 30 s' };
          if (mode === 'hang-after-processing') {
            world.authorized(accessKey, ambiente);
            await new Promise<void>((r) => world.hung.push(r));
            return { kind: 'unknown', reason: 'connection-lost-after-send', detail: 'late' };
          }
          if ('deny' in mode) { world.authority.set(accessKey, String(world.protocolSeq++)); return { kind: 'denied', ...mode.deny, protocol: world.authority.get(accessKey)! }; }
          return { kind: 'rejected', ...mode.reject };
        },
        consult(ctx: any): ConsultResult {
          const { accessKey, ambiente } = ctx.params;
          world.consultCalls.push(accessKey);
          if (world.consultMode === 'fail') return { kind: 'failed', reason: 'timeout-before-send', detail: 'sem conexão' };
          if (world.authority.has(accessKey)) return world.authorized(accessKey, ambiente);
          return { kind: 'not-found', cStat: 217, xMotivo: 'Rejeição: NF-e não consta na base de dados da SEFAZ' };
        },
      },
    };
  }
}
