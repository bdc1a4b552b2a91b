import { randomUUID } from 'node:crypto';
import type { Context, Service, ServiceSchema } from 'moleculer';
import type { Knex } from 'knex';
import { DbMixin } from './mixins/db.mixin.js';
import { OutboxMixin } from './mixins/outbox.mixin.js';
import { migrations } from '../migrations/issuer/index.js';
import { runtimeOf } from './shared/runtime.js';
import type { CallerMeta } from './shared/caller.js';
import { DomainError } from '../lib/errors/index.js';
import { createIssuerSchema, patchIssuerDocSchema, certificateUploadSchema, issuerListSchema } from '../lib/issuer/schema.js';
import { pageDoc, pageOf } from '../lib/pagination/page.js';
import { pagedQuery, rowPosition } from './shared/paged-query.js';
import { PROFILE_DEFAULTS, toIssuerResponse, toSnapshot, type IssuerProfile, type IssuerRecord } from '../lib/issuer/model.js';
import { checkIssuerValues, withMunicipalityName } from '../lib/issuer/rules.js';
import { applyIssuerPatch } from '../lib/issuer/patch.js';
import { checkKeyKind, preflight, selectIssuer, type EmissionModel, type KeyKind } from '../lib/issuer/preflight.js';
import { summaryOf } from '../lib/issuer/certificate.js';
import { Pkcs12Pool } from './issuer/pkcs12-pool.js';
import { checkPkcs12Iterations } from '../lib/issuer/pkcs12-iterations.js';
import { decryptBytes as decryptSecret, encrypt as encryptSecret, keyIdOf as secretKeyId } from '../lib/crypto/aead.js';
import type { IssuerSnapshot, SigningMaterial } from '../lib/issuer/types.js';
import { PUBLIC_COLUMNS, isUniqueViolation, passwordAad, pfxAad, toRecord, type IssuerRow } from './issuer/records.js';
import { issuerResponseDoc, certificateDoc } from './issuer/openapi-docs.js';
import { keyKindOf, partnerOf } from './issuer/caller.js';
import { TransfersMixin } from './issuer/transfers.mixin.js';
import { QueriesMixin } from './issuer/queries.mixin.js';
import { CertificateExpiryMixin } from './issuer/certificate-expiry.mixin.js';
import { LogoMixin } from './issuer/logo.mixin.js';
import { IssuerRowCacheMixin } from './issuer/row-cache.mixin.js';
import { issuerService, type IssuerSelf } from './issuer/service-this.js';

/** Decrypted signing material is kept this long per certificate fingerprint (signing is hot). */
const SIGNING_CACHE_MS = 5 * 60_000;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Ctx<P = Record<string, any>> = Context<P, CallerMeta>;

const uuidParam = { type: 'uuid' } as const;

/** API.md, Authentication > API key, rule 3, as the routes on one issuer state it. */
const TEST_KEY_RULE = 'Chave ek_test_ opera apenas emissores em homologação (ambienteFiscal 2) ou sandbox: emissor em produção não sandbox responde 403 CHAVE_TESTE_EMISSOR_PRODUCAO.';

/**
 * issuer: the Issuer resource, its A1 certificate and the facts the emission path needs
 * (API.md, Issuers and queries; Emission rules 2-4; Events > certificate.expiring). Rules live in
 * lib/issuer; this file wires them to HTTP and Postgres. Transfers, CNPJ/CPF queries, the
 * certificate expiry job and the per-node cache of issuer rows are mixins under services/issuer/.
 * Every write of an issuer row awaits `issuersChanged` after it committed and before it answers
 * (services/issuer/row-cache.mixin.ts): the emission path reads rows from that cache.
 */
const IssuerService: ServiceSchema = {
  name: 'issuer',
  version: 1,
  settings: { rest: '/' },
  mixins: [DbMixin({ schema: 'issuer', migrations }), OutboxMixin({ schema: 'issuer' }), TransfersMixin, QueriesMixin, CertificateExpiryMixin, LogoMixin, IssuerRowCacheMixin],

  actions: {
    create: {
      rest: 'POST /companies',
      httpStatus: 201,
      params: createIssuerSchema,
      openapi: { summary: 'Cadastra um emissor', tags: ['emissores'], description: 'Começa em homologação (ambienteFiscal 2). CNPJ já cadastrado (em qualquer conta) responde 409 CNPJ_CONFLICT com a mesma mensagem.', response: issuerResponseDoc, errors: { 409: 'CNPJ_CONFLICT: CNPJ já cadastrado (em qualquer conta); para assumi-lo, POST /v1/companies/transfer-request.' } },
      async handler(this: IssuerSelf, ctx: Ctx) {
        const partnerId = partnerOf(ctx);
        const p = ctx.params;
        const endereco = withMunicipalityName(Object.fromEntries(Object.entries(p.endereco ?? {}).filter(([, v]) => v !== null)) as IssuerProfile['endereco']);
        const errors = checkIssuerValues({ cnpj: p.cnpj, endereco });
        if (errors.length) throw new DomainError('VALIDATION_ERROR', { errors });
        const profile: IssuerProfile = { ...PROFILE_DEFAULTS, razaoSocial: p.razaoSocial, endereco };
        for (const [k, v] of Object.entries(p)) {
          if (['cnpj', 'razaoSocial', 'endereco', 'ambienteFiscal', 'sandbox'].includes(k) || v === null || v === undefined) continue;
          (profile as any)[k] = v;
        }
        const now = runtimeOf(this.broker).clock.now();
        const id = randomUUID();
        try {
          await this.knex(this.t('issuers')).insert({
            id, partner_id: partnerId, cnpj: p.cnpj, ambiente_fiscal: 2, sandbox: p.sandbox ?? false,
            profile: JSON.stringify(profile), created_at: now, updated_at: now,
          });
        } catch (err) {
          // The unique index decides races between two creations of the same CNPJ.
          if (isUniqueViolation(err)) throw new DomainError('CNPJ_CONFLICT');
          throw err;
        }
        return toIssuerResponse(await this.loadOwn(partnerId, id));
      },
    },

    list: {
      rest: 'GET /companies',
      openapi: {
        summary: 'Lista os emissores do parceiro', tags: ['emissores'], response: pageDoc(issuerResponseDoc), responseExample: { items: [], nextCursor: null },
        description: 'Os emissores do parceiro, mais antigos primeiro, uma página por vez (paginação por cursor: nextCursor da resposta vai em cursor da próxima chamada; null na última página). '
          + 'Listar é permitido também com chave ek_test_: ler a lista não opera nenhum emissor, e mostra ao integrador o ambienteFiscal/sandbox de cada um. '
          + 'As rotas que agem sobre um emissor (consulta, alteração, remoção, certificado) e a emissão respondem 403 CHAVE_TESTE_EMISSOR_PRODUCAO a uma chave ek_test_ para emissor em produção não sandbox.',
      },
      params: issuerListSchema,
      async handler(this: IssuerSelf, ctx: Ctx<{ limit?: number; cursor?: string }>) {
        const { query, limit } = pagedQuery(this.knex(this.t('issuers')).select(PUBLIC_COLUMNS).where({ partner_id: partnerOf(ctx) }).whereNull('deleted_at'), ctx.params);
        const rows: IssuerRow[] = await query;
        return pageOf(rows, limit, rowPosition, (r) => toIssuerResponse(toRecord(r)));
      },
    },

    show: {
      rest: 'GET /companies/:id',
      params: { id: uuidParam },
      openapi: { summary: 'Consulta um emissor', tags: ['emissores'], description: `Outro parceiro: 404. ${TEST_KEY_RULE}`, response: issuerResponseDoc },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string }>) {
        return toIssuerResponse(await this.loadOperable(ctx, ctx.params.id));
      },
    },

    update: {
      rest: 'PATCH /companies/:id',
      params: { id: uuidParam, ...patchIssuerDocSchema },
      openapi: { summary: 'Altera um emissor', tags: ['emissores'], description: `Chave ausente mantém; null mantém; "" limpa. sandbox/ambienteFiscal iguais ao atual são ignorados; diferentes respondem 422 AMBIENTE_IMUTAVEL. ${TEST_KEY_RULE}`, response: issuerResponseDoc, errors: { 409: 'CNPJ_CONFLICT: o novo CNPJ já está cadastrado (em qualquer conta).' } },
      async handler(this: IssuerSelf, ctx: Ctx) {
        const partnerId = partnerOf(ctx);
        const { id, ...body } = ctx.params;
        await this.loadOperable(ctx, id); // 404 / EMISSOR_INEXISTENTE / 403 test key before anything else
        const now = runtimeOf(this.broker).clock.now();
        try {
          // Read-modify-write under a row lock: two PATCHes of different fields both land.
          await this.knex.transaction(async (trx: Knex.Transaction) => {
            const row = await trx(this.t('issuers')).select(PUBLIC_COLUMNS).where({ id, partner_id: partnerId }).whereNull('deleted_at').forUpdate().first();
            if (!row) throw new DomainError('NOT_FOUND', undefined, 'Emissor não encontrado.');
            const current = toRecord(row);
            checkKeyKind(current, keyKindOf(ctx)); // moved to production meanwhile
            const next = applyIssuerPatch(current, body);
            if (next.cnpj !== current.cnpj && current.certificate) {
              throw new DomainError('CERTIFICADO_CNPJ_DIVERGENTE', { cnpjCertificado: current.certificate.cnpj }, 'Remova o certificado instalado antes de alterar o CNPJ do emissor.');
            }
            await trx(this.t('issuers')).where({ id }).update({ cnpj: next.cnpj, profile: JSON.stringify(next.profile), updated_at: now });
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw new DomainError('CNPJ_CONFLICT');
          throw err;
        }
        await this.issuersChanged([id]);
        return toIssuerResponse(await this.loadOwn(partnerId, id));
      },
    },

    uploadCertificate: {
      rest: 'POST /companies/:id/certificate',
      params: certificateUploadSchema,
      openapi: certificateDoc,
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string; pfxBase64: string; password: string }>) {
        const partnerId = partnerOf(ctx);
        const { id, pfxBase64, password } = ctx.params;
        const issuer: IssuerRecord = await this.loadOperable(ctx, id);
        const { config, clock } = runtimeOf(this.broker);
        const pfx = Buffer.from(pfxBase64.replace(/\s+/g, ''), 'base64');
        checkPkcs12Iterations(pfx); // a hostile file is refused before any thread is involved
        const cert = await this.pkcs12().accept(pfx, password, issuer.cnpj, clock.now(), partnerId);
        const summary = summaryOf(cert);
        // Same CNPJ as checked: a concurrent PATCH of the CNPJ makes this a conflict, not a mismatch stored.
        const stored = await this.knex(this.t('issuers')).where({ id, partner_id: partnerId, cnpj: issuer.cnpj }).whereNull('deleted_at').update({
          cert_summary: JSON.stringify(summary),
          cert_pfx: encryptSecret(Buffer.from(pfxBase64.replace(/\s+/g, ''), 'base64'), config.encryptionKeys, pfxAad(id)),
          cert_password: encryptSecret(password, config.encryptionKeys, passwordAad(id)),
          cert_fingerprint: cert.fingerprint,
          cert_not_after: new Date(cert.notAfter),
          updated_at: clock.now(),
        });
        if (!stored) throw new DomainError('CONFLICT', undefined, 'O emissor mudou durante o envio do certificado; envie novamente.');
        await this.issuersChanged([id]);
        ctx.meta.$statusCode = issuer.certificate ? 200 : 201;
        return { issuerId: id, certificado: summary };
      },
    },

    removeCertificate: {
      rest: 'DELETE /companies/:id/certificate',
      params: { id: uuidParam },
      openapi: { summary: 'Remove o certificado A1 do emissor', tags: ['emissores'], description: TEST_KEY_RULE, response: { type: 'object', properties: { issuerId: { type: 'string' }, certificado: { type: 'null' } } } },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string }>) {
        const partnerId = partnerOf(ctx);
        await this.loadOperable(ctx, ctx.params.id);
        await this.knex(this.t('issuers')).where({ id: ctx.params.id, partner_id: partnerId }).whereNull('deleted_at').update({
          cert_summary: null, cert_pfx: null, cert_password: null, cert_fingerprint: null, cert_not_after: null,
          updated_at: runtimeOf(this.broker).clock.now(),
        });
        await this.issuersChanged([ctx.params.id]);
        return { issuerId: ctx.params.id, certificado: null };
      },
    },

    remove: {
      rest: 'DELETE /companies/:id',
      params: { id: uuidParam },
      openapi: { summary: 'Remove um emissor', tags: ['emissores'], description: `O registro fica para o histórico dos documentos, sem certificado nem CSC; o CNPJ fica livre para novo cadastro. Depois disso, o id responde 404 EMISSOR_INEXISTENTE. ${TEST_KEY_RULE}`, response: { type: 'object', properties: { issuerId: { type: 'string', format: 'uuid' }, removedAt: { type: 'string', format: 'date-time' } } } },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string }>) {
        const partnerId = partnerOf(ctx);
        await this.loadOperable(ctx, ctx.params.id);
        const now = runtimeOf(this.broker).clock.now();
        await this.knex.transaction(async (trx: Knex.Transaction) => {
          await trx(this.t('issuers')).where({ id: ctx.params.id, partner_id: partnerId }).whereNull('deleted_at').update({
            deleted_at: now, updated_at: now, cert_summary: null, cert_pfx: null, cert_password: null, cert_fingerprint: null, cert_not_after: null,
            profile: trx.raw(`profile || '{"csc": null, "cscId": null}'::jsonb`),
          });
          await trx(this.t('transfer_requests')).where({ issuer_id: ctx.params.id, status: 'PENDENTE' })
            .update({ status: 'RECUSADA', decisao_motivo: 'Emissor removido pelo titular.', decided_by: 'sistema', decided_at: now });
        });
        await this.issuersChanged([ctx.params.id]);
        return { issuerId: ctx.params.id, removedAt: now.toISOString() };
      },
    },

    setEnvironment: {
      rest: 'PATCH /admin/companies/:id/ambiente',
      roles: ['SUPERADMIN'],
      auth: 'jwt',
      params: { $$strict: true, id: uuidParam, ambienteFiscal: { type: 'enum', values: [1, 2], optional: true }, sandbox: { type: 'boolean', optional: true } },
      openapi: { summary: 'Muda ambienteFiscal/sandbox de um emissor (SUPERADMIN)', tags: ['administração'], description: 'Única via de passagem para produção: PATCH /v1/companies/{id} recusa a mudança com 422 AMBIENTE_IMUTAVEL.', response: issuerResponseDoc },
      async handler(this: IssuerSelf, ctx: Ctx<{ id: string; ambienteFiscal?: 1 | 2; sandbox?: boolean }>) {
        const patch: Record<string, unknown> = { updated_at: runtimeOf(this.broker).clock.now() };
        if (ctx.params.ambienteFiscal !== undefined) patch.ambiente_fiscal = ctx.params.ambienteFiscal;
        if (ctx.params.sandbox !== undefined) patch.sandbox = ctx.params.sandbox;
        const n = await this.knex(this.t('issuers')).where({ id: ctx.params.id }).whereNull('deleted_at').update(patch);
        if (!n) throw new DomainError('NOT_FOUND', undefined, 'Emissor não encontrado.');
        await this.issuersChanged([ctx.params.id]);
        const row = await this.knex(this.t('issuers')).select(PUBLIC_COLUMNS).where({ id: ctx.params.id }).first();
        return toIssuerResponse(toRecord(row));
      },
    },

    // ---- Actions for other services (no REST) ----

    /**
     * Emission path: selection, test-key rule and preflight in one call (API.md, Emission rules 2-4).
     * Selection (400/404) and the test-key rule (403) always throw. Preflight (422):
     * - `preflight: 'throw'` (default; the batch intake and other callers): throws the refusal.
     * - `preflight: 'report'`: returns it as `preflight: { type, data, message }` (null when it
     *   passes) with the issuer snapshot, so the emission path can run strict validation and the
     *   business rules first and throw it only then, before numbering (issue 7, order of work).
     */
    forEmission: {
      visibility: 'public',
      params: {
        partnerId: 'string', issuerId: { type: 'string', optional: true }, model: { type: 'enum', values: ['55', '65', 'NFSe'] },
        keyKind: { type: 'enum', values: ['live', 'test'], optional: true, nullable: true },
        preflight: { type: 'enum', values: ['throw', 'report'], optional: true },
      },
      async handler(this: IssuerSelf, ctx: Context<{ partnerId: string; issuerId?: string; model: EmissionModel; keyKind?: KeyKind; preflight?: 'throw' | 'report' }>) {
        const { partnerId, issuerId, model } = ctx.params;
        const { issuer, fingerprint } = await this.selectPartnerIssuer(partnerId, issuerId, model === 'NFSe');
        checkKeyKind(issuer, ctx.params.keyKind ?? null);
        const report = ctx.params.preflight === 'report';
        let refusal: { type: string; data: Record<string, unknown> | null; message: string } | null = null;
        try {
          preflight(issuer, model, runtimeOf(this.broker).clock.now());
        } catch (err) {
          if (!report || !(err instanceof DomainError)) throw err;
          refusal = { type: err.type, data: err.data ?? null, message: err.message };
        }
        const snapshot: IssuerSnapshot = toSnapshot(issuer);
        const certificate = issuer.certificate ? { fingerprint, notAfter: issuer.certificate.notAfter, serial: issuer.certificate.serial } : null;
        return report ? { issuer: snapshot, certificate, preflight: refusal } : { issuer: snapshot, certificate };
      },
    },

    /** Document listing routes: selection and test-key rule only. */
    resolve: {
      visibility: 'public',
      params: { partnerId: 'string', issuerId: { type: 'string', optional: true }, keyKind: { type: 'enum', values: ['live', 'test'], optional: true, nullable: true } },
      async handler(this: IssuerSelf, ctx: Context<{ partnerId: string; issuerId?: string; keyKind?: KeyKind }>) {
        const { issuer } = await this.selectPartnerIssuer(ctx.params.partnerId, ctx.params.issuerId, false);
        checkKeyKind(issuer, ctx.params.keyKind ?? null);
        return { issuerId: issuer.id, cnpj: issuer.cnpj, ambienteFiscal: issuer.ambienteFiscal, sandbox: issuer.sandbox };
      },
    },

    /** The Issuer resource as GET /v1/companies/{id} shows it; 404 for another partner's. */
    get: {
      visibility: 'public',
      params: { partnerId: 'string', issuerId: 'string' },
      async handler(this: IssuerSelf, ctx: Context<{ partnerId: string; issuerId: string }>) {
        return toIssuerResponse(await this.loadOwn(ctx.params.partnerId, ctx.params.issuerId));
      },
    },

    /** Decrypted A1 material for the signer and the mTLS client. Never exposed over HTTP. */
    signingMaterial: {
      visibility: 'public',
      params: { issuerId: 'string' },
      async handler(this: IssuerSelf, ctx: Context<{ issuerId: string }>): Promise<SigningMaterial> {
        return this.signingMaterialOf(ctx.params.issuerId);
      },
    },

    /**
     * Key rotation, step 2: re-seals every certificate and password not sealed with the current
     * (first) key. Step 1 is prepending the new key to ENCRYPTION_KEYS on every node; step 3,
     * after this returns, is dropping the old key. Safe to run on several nodes at once.
     */
    resealSecrets: {
      visibility: 'public',
      async handler(this: IssuerSelf): Promise<{ resealed: number }> {
        const keys = runtimeOf(this.broker).config.encryptionKeys;
        const current = keys[0]!.id;
        const rows = await this.knex(this.t('issuers')).select('id', 'cert_pfx', 'cert_password').whereNotNull('cert_pfx');
        const changed: string[] = [];
        for (const row of rows) {
          if (secretKeyId(row.cert_pfx) === current && secretKeyId(row.cert_password) === current) continue;
          const pfx = encryptSecret(decryptSecret(row.cert_pfx, keys, pfxAad(row.id)), keys, pfxAad(row.id));
          const password = encryptSecret(decryptSecret(row.cert_password, keys, passwordAad(row.id)), keys, passwordAad(row.id));
          // Only if the certificate was not replaced meanwhile.
          if (await this.knex(this.t('issuers')).where({ id: row.id, cert_pfx: row.cert_pfx }).update({ cert_pfx: pfx, cert_password: password })) changed.push(row.id);
        }
        // The cached columns do not include the sealed ones; dropped anyway, so that every write of a
        // row invalidates it, without exceptions to remember.
        if (changed.length) await this.issuersChanged(changed);
        return { resealed: changed.length };
      },
    },
  },

  methods: {
    /** Certificate work runs in worker threads with a time limit (issue 23, defect 1), created on first use. */
    pkcs12(this: IssuerSelf): Pkcs12Pool {
      this.pkcs12Pool ??= new Pkcs12Pool({ timeoutMs: runtimeOf(this.broker).config.certificateTimeoutMs });
      return this.pkcs12Pool;
    },

    /**
     * The issuer a document call names (or the partner's only one), with the fingerprint of its
     * certificate, in one indexed query whatever the number of issuers the partner has: this runs
     * for every note, so its cost must not grow with the partner's size. The choice and its refusals
     * are lib/issuer/preflight.ts's selectIssuer.
     */
    async selectPartnerIssuer(this: IssuerSelf, partnerId: string, issuerId: string | undefined, requireId: boolean): Promise<{ issuer: IssuerRecord; fingerprint: string | null }> {
      const issuers = () => this.knex(this.t('issuers')).select(PUBLIC_COLUMNS).where({ partner_id: partnerId });
      let rows: IssuerRow[];
      let total: number | undefined;
      if (issuerId) {
        // Not a UUID: no issuer has it (and Postgres would refuse it in a uuid comparison).
        // Every note's: from this node's cache of rows (services/issuer/row-cache.mixin.ts), kept
        // whatever the partner, so another partner's issuer is filtered here.
        const row = UUID_RE.test(issuerId) ? await this.issuerRowById(issuerId) : undefined;
        rows = row && row.partner_id === partnerId ? [row] : [];
      } else {
        rows = requireId ? [] : await issuers().whereNull('deleted_at').orderBy('created_at').orderBy('id').limit(2);
        if (rows.length > 1) {
          const [count] = await this.knex(this.t('issuers')).where({ partner_id: partnerId }).whereNull('deleted_at').count('* as n');
          total = Number(count.n);
        }
      }
      const active = rows.filter((r) => !r.deleted_at);
      const removedIds = new Set(rows.filter((r) => r.deleted_at).map((r) => r.id));
      const record = selectIssuer(active.map(toRecord), issuerId, { requireId, removedIds, ...(total !== undefined ? { total } : {}) });
      return { issuer: record, fingerprint: active.find((r) => r.id === record.id)?.cert_fingerprint ?? null };
    },

    /** The issuer if it belongs to the partner; otherwise 404, the same for unknown and foreign ids. */
    async loadOwn(this: IssuerSelf, partnerId: string, id: string): Promise<IssuerRecord> {
      const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
      const row = isUuid ? await this.knex(this.t('issuers')).select(PUBLIC_COLUMNS).where({ id, partner_id: partnerId }).first() : undefined;
      if (!row) throw new DomainError('NOT_FOUND', undefined, 'Emissor não encontrado.');
      if (row.deleted_at) throw new DomainError('EMISSOR_INEXISTENTE');
      return toRecord(row);
    },

    /**
     * An issuer the HTTP caller may act on: its partner's (404 otherwise, as loadOwn) and, for an
     * ek_test_ key, in homologation or sandbox (API.md, Authentication > API key, rule 3: 403).
     */
    async loadOperable(this: IssuerSelf, ctx: Ctx<any>, id: string): Promise<IssuerRecord> {
      const issuer: IssuerRecord = await this.loadOwn(partnerOf(ctx), id);
      checkKeyKind(issuer, keyKindOf(ctx));
      return issuer;
    },

    async signingMaterialOf(this: IssuerSelf, issuerId: string): Promise<SigningMaterial> {
      const row = await this.knex(this.t('issuers')).select('id', 'cert_pfx', 'cert_password', 'cert_fingerprint').where({ id: issuerId }).whereNull('deleted_at').first();
      if (!row?.cert_pfx) throw new DomainError('CERTIFICADO_AUSENTE');
      this.signingCache ??= new Map<string, { material: SigningMaterial; until: number }>();
      const cached = this.signingCache.get(row.cert_fingerprint);
      if (cached && cached.until > Date.now() && cached.material.issuerId === issuerId) return cached.material;
      const keys = runtimeOf(this.broker).config.encryptionKeys;
      const pfx = decryptSecret(row.cert_pfx, keys, pfxAad(issuerId));
      const password = decryptSecret(row.cert_password, keys, passwordAad(issuerId)).toString('utf8');
      const cert = await this.pkcs12().read(pfx, password);
      const material: SigningMaterial = { issuerId, fingerprint: cert.fingerprint, keyPem: cert.keyPem, certPem: cert.certPem, chainPem: cert.chainPem, notAfter: cert.notAfter };
      for (const [k, v] of this.signingCache) if (v.until <= Date.now()) this.signingCache.delete(k);
      this.signingCache.set(cert.fingerprint, { material, until: Date.now() + SIGNING_CACHE_MS });
      return material;
    },
  },

  async stopped(this: Service) {
    const self = issuerService(this);
    await self.pkcs12Pool?.destroy();
  },
};

export default IssuerService;
