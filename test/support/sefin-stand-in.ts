import { randomInt } from 'node:crypto';
import type { ServiceSchema } from 'moleculer';
import type { Clock } from '../../services/shared/clock.js';
import { startStack, type Stack } from './stack.js';
import { integratorWithA1 } from './e2e.js';
import { NFSE_ISSUER } from './nfse-factories.js';
import type { DpsConsultResult, IssuedNfse, MunicipalityAdherenceResult, NfseConsultResult, NfseEventResult, NfseSubmitResult, SefinMessage } from '../../lib/sefin/results.js';

/**
 * A programmable stand-in for the Sefin Nacional actions of v1.sefaz (lib/sefin/results.ts is the
 * contract), for the emission tests that need an exact Sefin answer: a rejection with given
 * erros[], E0037, an answer lost after processing, a cancellation. It keeps its own record of
 * idDps → NFS-e, so the reconciliation query answers what "Sefin" processed. The real client and
 * simulator are tested on their own (services/sefaz, branch sefin).
 */
export type SubmitMode =
  | { kind: 'authorize' }
  | { kind: 'reject'; erros: SefinMessage[] }
  /** Processed (recorded), but the caller sees no answer. */
  | { kind: 'drop-after-processing' }
  | { kind: 'fail' };

export class SefinStandIn {
  submit: SubmitMode = { kind: 'authorize' };
  /**
   * How nfseEvent answers: `fail` loses the answer of a send Sefin did not register, `drop-after-processing`
   * registers it and loses the answer, `not-sent` fails before anything left.
   */
  event: 'register' | { reject: SefinMessage[] } | 'fail' | 'drop-after-processing' | 'not-sent' = 'register';
  /** When set, nfseSubmit waits for it before answering (a DPS in flight). */
  submitGate: Promise<void> | null = null;
  /** When set, nfseEvent waits for it before answering (a send in flight). */
  eventGate: Promise<void> | null = null;
  /** Cancellations registered, by chaveAcesso: what nfseConsult answers as `canceled`. */
  readonly canceled = new Map<string, { eventXml: string; registeredAt: string }>();
  adherence: MunicipalityAdherenceResult = { kind: 'failed', reason: 'connect', detail: 'sem resposta' };
  readonly issued = new Map<string, IssuedNfse>();
  readonly calls: { action: string; params: any }[] = [];
  private nNfse = 0;

  service(): ServiceSchema {
    const self = this;
    return {
      name: 'sefaz',
      version: 1,
      actions: {
        async nfseSubmit(ctx: any): Promise<NfseSubmitResult> {
          self.calls.push({ action: 'nfseSubmit', params: ctx.params });
          if (self.submitGate) await self.submitGate;
          const { idDps, signedDpsXml } = ctx.params;
          const mode = self.submit;
          if (mode.kind === 'fail') return { kind: 'failed', reason: 'connect', detail: 'connection refused' };
          if (mode.kind === 'reject') return { kind: 'rejected', httpStatus: 400, erros: mode.erros };
          if (self.issued.has(idDps)) return { kind: 'rejected', httpStatus: 400, erros: [{ codigo: 'E0014', descricao: 'DPS já existente' }] };
          const issued = self.issue(idDps, signedDpsXml);
          if (mode.kind === 'drop-after-processing') return { kind: 'unknown', reason: 'timeout-after-send', detail: 'read timeout' };
          return { kind: 'authorized', alertas: [], ...issued };
        },
        nfseConsultDps(ctx: any): DpsConsultResult {
          self.calls.push({ action: 'nfseConsultDps', params: ctx.params });
          const found = self.issued.get(ctx.params.idDps);
          return found ? { kind: 'authorized', ...found } : { kind: 'not-found' };
        },
        nfseMunicipality(ctx: any): MunicipalityAdherenceResult {
          self.calls.push({ action: 'nfseMunicipality', params: ctx.params });
          return self.adherence;
        },
        async nfseEvent(ctx: any): Promise<NfseEventResult> {
          self.calls.push({ action: 'nfseEvent', params: ctx.params });
          if (self.eventGate) await self.eventGate;
          const mode = self.event;
          if (mode === 'not-sent') return { kind: 'failed', reason: 'connect', detail: 'connection refused' };
          if (mode === 'fail') return { kind: 'unknown', reason: 'timeout-after-send', detail: 'read timeout' };
          if (typeof mode === 'object') return { kind: 'rejected', httpStatus: 400, erros: mode.reject };
          const chave = ctx.params.chaveAcesso as string;
          // Sefin answers a repeated event with the one it registered.
          const registered = self.canceled.get(chave) ?? { eventXml: `<evento xmlns="http://www.sped.fazenda.gov.br/nfse">${ctx.params.signedEventXml}</evento>`, registeredAt: '2026-11-22T21:00:00-03:00' };
          self.canceled.set(chave, registered);
          if (mode === 'drop-after-processing') return { kind: 'unknown', reason: 'timeout-after-send', detail: 'read timeout' };
          return { kind: 'registered', ...registered };
        },
        nfseConsult(ctx: any): NfseConsultResult {
          self.calls.push({ action: 'nfseConsult', params: ctx.params });
          const chave = ctx.params.chaveAcesso as string;
          const issued = [...self.issued.values()].find((n) => n.chaveAcesso === chave);
          if (!issued) return { kind: 'not-found' };
          const cancelamento = self.canceled.get(chave);
          return cancelamento ? { kind: 'canceled', ...issued, cancelamento } : { kind: 'authorized', ...issued };
        },
      },
    };
  }

  count(action: string): number {
    return this.calls.filter((c) => c.action === action).length;
  }

  private issue(idDps: string, dps: string): IssuedNfse {
    const n = ++this.nNfse;
    const cLocEmi = idDps.slice(3, 10);
    const cnpj = idDps.slice(11, 25);
    const chaveAcesso = `${cLocEmi}22${cnpj}${String(n).padStart(13, '0')}2611${String(randomInt(0, 1e9)).padStart(9, '0')}0`;
    const issued: IssuedNfse = { chaveAcesso, idDps, numeroNfse: String(n), nfseXml: nfseXmlOf(chaveAcesso, n, dps), authorizedAt: '2026-11-22T17:40:01-03:00' };
    this.issued.set(idDps, issued);
    return issued;
  }
}

/** An NFS-e document shaped like Sefin's (infNFSe with its own fields, then the DPS); not signed. */
function nfseXmlOf(chave: string, n: number, dps: string): string {
  const v = (tag: string) => dps.match(new RegExp(`<${tag}>([^<]*)</${tag}>`))?.[1] ?? '';
  return '<NFSe xmlns="http://www.sped.fazenda.gov.br/nfse" versao="1.01">'
    + `<infNFSe Id="NFS${chave}"><xLocEmi>São Paulo</xLocEmi><xLocPrestacao>São Paulo</xLocPrestacao><nNFSe>${n}</nNFSe>`
    + `<cLocIncid>${v('cLocPrestacao')}</cLocIncid><xLocIncid>São Paulo</xLocIncid><xTribNac>Análise e desenvolvimento de sistemas.</xTribNac>`
    + '<verAplic>SefinStandIn</verAplic><ambGer>2</ambGer><tpEmis>1</tpEmis><procEmi>1</procEmi><cStat>100</cStat>'
    + `<dhProc>2026-11-22T17:40:01-03:00</dhProc><nDFSe>${n}</nDFSe>`
    + `<emit><CNPJ>${chave.slice(9, 23)}</CNPJ><IM>${v('IM')}</IM><xNome>EMPRESA TESTE LTDA</xNome><enderNac><xLgr>Rua das Flores</xLgr><nro>100</nro><xBairro>Centro</xBairro><cMun>3550308</cMun><UF>SP</UF><CEP>01001000</CEP></enderNac></emit>`
    + `<valores><vBC>${v('vServ')}</vBC><vLiq>${v('vServ')}</vLiq></valores>${dps.replace(/^<\?xml[^>]*>/, '')}</infNFSe></NFSe>`;
}

/**
 * One node with the gateway, auth, issuer, emission (and `more` services) on Postgres, answering
 * NFS-e through `sefin`, and a SCALE integrator with one NFS-e issuer and its A1: the set-up of the
 * emission's NFS-e tests.
 */
export async function standInStack(sefin: SefinStandIn, clock: Clock, more: string[] = []) {
  const stack: Stack = await startStack({ clock, nodes: [{ services: ['api-gateway', 'auth', 'issuer', 'emission', ...more], extra: [sefin.service()] }] });
  const { headers, issuerId, partner } = await integratorWithA1(stack, NFSE_ISSUER);
  return { stack, headers, issuerId, partnerId: partner.partnerId };
}
