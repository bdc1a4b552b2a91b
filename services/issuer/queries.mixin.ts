import type { Context, Service, ServiceSchema } from 'moleculer';
import { runtimeOf } from '../shared/runtime.js';
import type { CallerMeta } from '../shared/caller.js';
import { DomainError } from '../../lib/errors/index.js';
import { isValidCnpj, isValidCpf, normalizeCnpj, normalizeCpf } from '../../lib/issuer/documents.js';
import { lookupCnpj, lookupCpf } from './lookup-client.js';
import { startLookupSimulator } from './lookup-simulator.js';
import { issuerService, type IssuerSelf } from './service-this.js';

type Ctx<P = Record<string, any>> = Context<P, CallerMeta>;

/** GET /v1/queries/cnpj|cpf (issue 4, item 7): local check digits, then the lookup provider. */
export const QueriesMixin: Partial<ServiceSchema> = {
  actions: {
    queryCnpj: {
      rest: 'GET /queries/cnpj/:cnpj',
      params: { cnpj: { type: 'string', min: 1, max: 32 } },
      openapi: { summary: 'Consulta cadastral de CNPJ', tags: ['consultas'], description: 'Dígitos conferidos localmente (400). Provedor: 404 → NOT_FOUND; erro ou resposta inválida → BAD_GATEWAY (502); sem resposta em 3 s → SERVICE_UNAVAILABLE (503).' },
      async handler(this: IssuerSelf, ctx: Ctx<{ cnpj: string }>) {
        const cnpj = normalizeCnpj(ctx.params.cnpj);
        if (!isValidCnpj(cnpj)) throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'cnpj', message: 'CNPJ inválido: dígitos verificadores não conferem.' }] });
        return lookupCnpj(await this.lookupBase(), cnpj);
      },
    },

    queryCpf: {
      rest: 'GET /queries/cpf/:cpf',
      params: { cpf: { type: 'string', min: 1, max: 32 } },
      openapi: { summary: 'Consulta cadastral de CPF', tags: ['consultas'], description: 'Dígitos conferidos localmente (400); falhas do provedor como em /queries/cnpj.' },
      async handler(this: IssuerSelf, ctx: Ctx<{ cpf: string }>) {
        const cpf = normalizeCpf(ctx.params.cpf);
        if (!isValidCpf(cpf)) throw new DomainError('VALIDATION_ERROR', { errors: [{ field: 'cpf', message: 'CPF inválido: dígitos verificadores não conferem.' }] });
        return lookupCpf(await this.lookupBase(), cpf);
      },
    },
  },
  methods: {
    /** config.lookupProviderUrl, or the built-in simulator started on first use. */
    async lookupBase(this: IssuerSelf): Promise<string> {
      const configured = runtimeOf(this.broker).config.lookupProviderUrl;
      if (configured) return configured;
      this.lookupSimulator ??= startLookupSimulator();
      return (await this.lookupSimulator).url;
    },
  },
  async stopped(this: Service) {
    const self = issuerService(this);
    if (self.lookupSimulator) await (await self.lookupSimulator).close();
  },
};
