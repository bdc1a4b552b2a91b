import type { Context, Service, ServiceSchema } from 'moleculer';
import { DbMixin, type DbMethods } from './mixins/db.mixin.js';
import { migrations } from '../migrations/auth/index.js';
import { runtimeOf } from './shared/runtime.js';
import { requestLog } from './shared/request-log.js';
import { createMailer } from './shared/mailer.js';
import type { CallerMeta } from './shared/caller.js';
import { PLANS } from '../lib/plans.js';
import { USER_ROLES } from '../lib/auth/identity.js';
import * as S from '../lib/auth/schemas.js';
import type { AuthDeps } from './auth/context.js';
import { authenticate, revokeSessions, refresh, type AuthenticateParams } from './auth/sessions.js';
import { login, verifySecondFactor, setupTotp, enableTotp, disableTotp, changePassword } from './auth/login.js';
import { register, listAccessRequests, approveAccessRequest, provisionPartner, resendOwnerInvite, acceptInvite, forgotPassword, resetPassword } from './auth/onboarding.js';
import { deactivatePartner, getPartner, issueKey, listKeys, markEmitted, regenerateKey, setPlan, insertPartner, insertUser } from './auth/partners.js';
import { partnerView } from './auth/context.js';
import { purgeExpired, type PurgeResult } from './auth/purge.js';
import { AuthenticationCache } from './auth/authentication-cache.js';

type Ctx<P = any> = Context<P, CallerMeta>;

/** The auth service as its actions and methods see it (DbMixin's knex and t(), its own state). */
type Auth = Service & DbMethods & {
  _deps?: AuthDeps;
  authentications: AuthenticationCache;
  purgeTimer?: NodeJS.Timeout;
  purgeRunning?: Promise<PurgeResult | void> | null;
  deps(ctx?: Ctx): AuthDeps;
  sharedDeps(): AuthDeps;
  purge(): Promise<PurgeResult>;
};
/** Moleculer types `this` of event handlers and lifecycle hooks as the bare Service: this is ours. */
const auth = (service: Service) => service as Auth;
const tags = ['autenticação'];
const adminTags = ['administração'];
const admin = { auth: 'jwt', roles: ['SUPERADMIN'] } as const;

/**
 * auth: identity and access (API.md, Authentication; Resources > Partner, User, API key).
 * Thin: each action delegates to services/auth/*, which hold the I/O, and lib/auth/*, which hold
 * the rules. `authenticate` is what the gateway calls on every protected request.
 */
const AuthService: ServiceSchema = {
  name: 'auth',
  version: 1,
  settings: { rest: '/' },
  mixins: [DbMixin({ schema: 'auth', migrations })],

  actions: {
    authenticate: {
      visibility: 'public',
      // From this node's cache, exact across nodes (API.md: logout immediate): services/auth/authentication-cache.ts.
      params: { authorization: { type: 'string', optional: true }, apiKey: { type: 'string', optional: true }, purpose: { type: 'enum', values: ['api', 'mfa'] } },
      handler(this: Auth, ctx: Ctx<AuthenticateParams>) { return this.authentications.authenticate(ctx.params, () => authenticate(this.deps(ctx), ctx.params)); },
    },

    login: {
      rest: 'POST /auth/login', auth: 'none', httpStatus: 201, params: S.loginSchema,
      openapi: { summary: 'Login com e-mail e senha (e código 2FA)', description: 'Com 2FA ativo e sem código responde mfa_required e mfa_token (5 min). Toda falha: 401 Credenciais inválidas.', tags, response: S.loginResponse, errors: { 401: 'UNAUTHORIZED: e-mail, senha ou código 2FA inválidos (a mesma mensagem para toda falha).' } },
      handler(this: Auth, ctx: Ctx) { return login(this.deps(ctx), ctx.params, ctx.meta.ip); },
    },
    verify2fa: {
      rest: 'POST /auth/2fa/verify', auth: 'none', httpStatus: 201, params: S.verifySchema,
      openapi: { summary: 'Conclui o login com código TOTP ou de recuperação', description: 'O mfa_token vale uma vez: depois de concluir um login é recusado (401). Um código errado não o consome.', tags, response: S.sessionResponse, errors: { 401: 'UNAUTHORIZED: mfa_token inválido, expirado ou já usado, ou código errado.' } },
      handler(this: Auth, ctx: Ctx) { return verifySecondFactor(this.deps(ctx), ctx.params, ctx.meta.ip); },
    },
    setup2fa: {
      rest: 'POST /auth/2fa/setup', auth: 'mfa', idempotency: false, params: { $$strict: true },
      openapi: {
        summary: 'Gera um segredo TOTP pendente', description: 'Com mfa_token (cadastro obrigatório no login) ou JWT. Responde o segredo e a URI otpauth:// para o autenticador; só vale após /2fa/enable.', tags,
        response: { type: 'object', properties: { secret: { type: 'string' }, otpauthUri: { type: 'string' }, issuer: { type: 'string' }, algorithm: { const: 'SHA1' }, digits: { const: 6 }, period: { const: 30 } } },
        errors: { 409: 'CONFLICT: 2FA já ativo.' },
      },
      handler(this: Auth, ctx: Ctx) { return setupTotp(this.deps(ctx), ctx.meta.caller); },
    },
    enable2fa: {
      rest: 'POST /auth/2fa/enable', auth: 'mfa', idempotency: false, params: S.enableSchema,
      openapi: {
        summary: 'Ativa o 2FA com um código do segredo pendente', description: 'Responde os 10 códigos de recuperação (mostrados uma vez). Com mfa_token, também conclui o login (access_token, refresh_token, user) e consome o token.', tags,
        // With an mfa_token the enrollment also opens the session: its fields are the login's (S.sessionResponse).
        response: {
          type: 'object', required: ['enabled', 'recoveryCodes'],
          properties: { enabled: { const: true }, recoveryCodes: { type: 'array', items: { type: 'string' } }, ...S.sessionResponse.properties },
        },
        errors: { 409: 'CONFLICT: 2FA já ativo, ou /2fa/setup não chamado antes.' },
      },
      handler(this: Auth, ctx: Ctx) { return enableTotp(this.deps(ctx), ctx.meta.caller, ctx.params.totpCode); },
    },
    disable2fa: {
      rest: 'POST /auth/2fa/disable', auth: 'jwt', params: S.disableSchema,
      openapi: {
        summary: 'Desativa o 2FA (perfis em que é opcional)', description: 'Exige senha e código atual; SUPERADMIN e proprietário recebem 403.', tags,
        errors: { 401: 'UNAUTHORIZED: sessão inválida, ou senha ou código 2FA errados.', 409: 'CONFLICT: 2FA não está ativo.' },
      },
      handler(this: Auth, ctx: Ctx) { return disableTotp(this.deps(ctx), ctx.meta.caller, ctx.params); },
    },
    refresh: {
      rest: 'POST /auth/refresh', auth: 'none', params: S.refreshSchema,
      openapi: { summary: 'Troca o refresh token (rotação; reuso revoga a família)', tags, response: S.sessionResponse, errors: { 401: 'UNAUTHORIZED: refresh token inválido, expirado, revogado ou reusado (o reuso revoga a família).' } },
      handler(this: Auth, ctx: Ctx) { return refresh(this.deps(ctx), ctx.params.refreshToken); },
    },
    logout: {
      rest: 'POST /auth/logout', auth: 'jwt', params: S.logoutSchema,
      openapi: { summary: 'Encerra esta sessão (ou todas com all=true)', tags, query: ['all'], response: { type: 'object', properties: { endedSessions: { type: 'integer' } } } },
      async handler(this: Auth, ctx: Ctx) {
        const caller = ctx.meta.caller!;
        const n = ctx.params.all ? await revokeSessions(this.deps(ctx), { userId: caller.userId! }, 'logout_all') : await revokeSessions(this.deps(ctx), { sessionId: caller.sessionId! }, 'logout');
        return { endedSessions: n };
      },
    },
    me: {
      rest: 'GET /auth/me', auth: 'any',
      openapi: { summary: 'Quem sou eu: credencial, parceiro e plano', tags },
      async handler(this: Auth, ctx: Ctx) {
        const caller = ctx.meta.caller!;
        const d: AuthDeps = this.deps(ctx);
        const partner = caller.partnerId ? partnerView(await getPartner(d, caller.partnerId)) : null;
        const user = caller.userId ? await d.knex(d.t('users')).where({ id: caller.userId }).first('id', 'email', 'name', 'role', 'totp_enabled') : null;
        return {
          ...caller,
          user: user ? { id: user.id, email: user.email, name: user.name, role: user.role, twoFactorEnabled: user.totp_enabled } : null,
          partner, apiKeys: caller.partnerId ? await listKeys(d, caller.partnerId) : [],
        };
      },
    },
    changePassword: {
      rest: 'POST /auth/change-password', auth: 'jwt', params: S.changePasswordSchema,
      openapi: { summary: 'Troca a senha e encerra todas as sessões', tags, response: S.messageResponse },
      handler(this: Auth, ctx: Ctx) { return changePassword(this.deps(ctx), ctx.meta.caller, ctx.params); },
    },
    forgotPassword: {
      rest: 'POST /auth/forgot-password', auth: 'none', httpStatus: 202, params: S.forgotPasswordSchema,
      openapi: { summary: 'Pede um link de redefinição de senha (sempre 202)', tags, response: S.messageResponse },
      handler(this: Auth, ctx: Ctx) { return forgotPassword(this.deps(ctx), ctx.params.email); },
    },
    resetPassword: {
      rest: 'POST /auth/reset-password', auth: 'none', params: S.resetPasswordSchema,
      openapi: { summary: 'Define nova senha com o token do e-mail', description: 'Token inválido, expirado ou usado: 400 com mensagem única. Invalida os outros tokens e as sessões.', tags, response: S.messageResponse },
      handler(this: Auth, ctx: Ctx) { return resetPassword(this.deps(ctx), ctx.params); },
    },
    register: {
      rest: 'POST /auth/register', auth: 'none', httpStatus: 202, params: S.registerSchema,
      openapi: { summary: 'Solicitação de acesso antecipado (não cria conta)', description: 'whatsapp com DDD, 10 ou 11 dígitos (formatação ignorada). emits: modelos que pretende emitir.', tags, response: { type: 'object', properties: { message: { type: 'string' }, requestId: { type: 'string', format: 'uuid' } } } },
      handler(this: Auth, ctx: Ctx) { return register(this.deps(ctx), ctx.params); },
    },
    acceptInvite: {
      rest: 'POST /auth/invite/accept', auth: 'none', httpStatus: 201, params: S.acceptInviteSchema,
      openapi: {
        summary: 'Aceita o convite de proprietário e define a senha', description: 'Cria o usuário proprietário e uma primeira chave ek_test_ (mostrada uma vez). No login, o 2FA deve ser cadastrado.', tags,
        // Two partners may invite the same address; the first acceptance creates the account (services/auth/partners.ts insertUser).
        errors: { 409: 'CONFLICT: o e-mail do convite já tem conta (outro convite para o mesmo e-mail foi aceito antes); o convite não é consumido.' },
      },
      handler(this: Auth, ctx: Ctx) { return acceptInvite(this.deps(ctx), ctx.params); },
    },
    regenerateTestKey: {
      rest: 'POST /auth/api-keys/test/regenerate', auth: 'jwt', idempotency: false, httpStatus: 201, params: { $$strict: true },
      openapi: { summary: 'Nova chave ek_test_ (revoga a anterior)', tags, response: S.apiKeyResponse },
      handler(this: Auth, ctx: Ctx) { return regenerateKey(this.deps(ctx), ctx.meta.caller, 'test'); },
    },
    regenerateLiveKey: {
      rest: 'POST /auth/api-keys/regenerate', auth: 'jwt', idempotency: false, httpStatus: 201, params: { $$strict: true },
      openapi: { summary: 'Nova chave ek_live_ (revoga a anterior); exige assinatura ativa', tags, response: S.apiKeyResponse },
      handler(this: Auth, ctx: Ctx) { return regenerateKey(this.deps(ctx), ctx.meta.caller, 'live'); },
    },

    // SUPERADMIN routes
    registerPartner: {
      rest: 'POST /auth/register-partner', ...admin, httpStatus: 201, params: S.registerPartnerSchema,
      openapi: {
        summary: 'Provisiona um parceiro (plano Dev) e convida o proprietário', tags: adminTags,
        errors: { 404: 'NOT_FOUND: accessRequestId de solicitação inexistente.', 409: 'CONFLICT: e-mail do proprietário já cadastrado, ou solicitação (accessRequestId) já aprovada.' },
      },
      handler(this: Auth, ctx: Ctx) { return provisionPartner(this.deps(ctx), ctx.params); },
    },
    listAccessRequests: {
      rest: 'GET /admin/access-requests', ...admin, params: S.listAccessRequestsSchema,
      openapi: { summary: 'Lista solicitações de acesso', tags: adminTags },
      handler(this: Auth, ctx: Ctx) { return listAccessRequests(this.deps(ctx), ctx.params); },
    },
    approveAccessRequest: {
      rest: 'POST /admin/access-requests/:id/approve', ...admin, httpStatus: 201, params: S.idParamSchema,
      openapi: { summary: 'Aprova a solicitação: cria o parceiro e envia o convite (7 dias)', tags: adminTags, errors: { 409: 'CONFLICT: solicitação já aprovada ou e-mail já cadastrado.' } },
      handler(this: Auth, ctx: Ctx) { return approveAccessRequest(this.deps(ctx), ctx.params.id); },
    },
    ownerInvite: {
      rest: 'POST /admin/partners/:id/owner-invite', ...admin, httpStatus: 202, params: S.ownerInviteSchema,
      openapi: { summary: 'Reenvia o convite de proprietário de um parceiro sem proprietário', tags: adminTags, errors: { 409: 'CONFLICT: parceiro desativado, que já tem proprietário, ou e-mail do convite que já tem conta.' } },
      handler(this: Auth, ctx: Ctx) { return resendOwnerInvite(this.deps(ctx), ctx.params); },
    },
    deactivatePartnerRoute: {
      rest: 'POST /admin/partners/:id/deactivate', ...admin, params: S.idParamSchema,
      openapi: { summary: 'Desativa o parceiro (revoga chaves e sessões); 409 se já emitiu', tags: adminTags, errors: { 409: 'PARCEIRO_COM_DOCUMENTOS: o parceiro já emitiu documento fiscal.' } },
      handler(this: Auth, ctx: Ctx) { return deactivatePartner(this.deps(ctx), ctx.params.id); },
    },

    // Internal actions (other services, REPL, bin/admin.ts)
    /** One node's part of `credentialsChanged` (services/auth/authentication-cache.ts); any params: it drops all. */
    dropAuthenticationCache: {
      visibility: 'public',
      handler(this: Auth) { this.authentications.dropAll(); return { dropped: true }; },
    },
    markPartnerEmitted: {
      visibility: 'public', params: { partnerId: 'uuid' },
      handler(this: Auth, ctx: Ctx) { return markEmitted(this.deps(ctx), ctx.params.partnerId); },
    },
    getPartner: {
      visibility: 'public', params: { partnerId: 'uuid' },
      async handler(this: Auth, ctx: Ctx) { return partnerView(await getPartner(this.deps(ctx), ctx.params.partnerId)); },
    },
    deactivatePartner: {
      visibility: 'public', params: { partnerId: 'uuid' },
      handler(this: Auth, ctx: Ctx) { return deactivatePartner(this.deps(ctx), ctx.params.partnerId); },
    },
    createSuperadmin: {
      visibility: 'public', params: { email: 'email', password: { type: 'string', min: 8, max: 72 }, name: { type: 'string', min: 2 } },
      handler(this: Auth, ctx: Ctx) { const d = this.deps(ctx); return insertUser(d, d.knex, { ...ctx.params, role: 'SUPERADMIN', partnerId: null }); },
    },
    createPartner: {
      visibility: 'public',
      params: {
        name: { type: 'string', min: 2 }, ownerEmail: 'email', ownerName: { type: 'string', optional: true }, ownerPassword: { type: 'string', min: 8, max: 72, optional: true },
        plan: { type: 'enum', values: PLANS, optional: true }, subscription: { type: 'enum', values: ['ACTIVE', 'INACTIVE'], optional: true },
        enterpriseRateLimit: { type: 'number', integer: true, positive: true, optional: true },
      },
      async handler(this: Auth, ctx: Ctx) {
        const d: AuthDeps = this.deps(ctx);
        const p = ctx.params;
        if (!p.ownerPassword) return provisionPartner(d, p);
        return d.knex.transaction(async (trx) => {
          const partner = await insertPartner(d, trx, p);
          const owner = await insertUser(d, trx, { email: p.ownerEmail, name: p.ownerName ?? p.name, role: 'ADMIN', partnerId: partner.id, password: p.ownerPassword, owner: true });
          return { partnerId: partner.id, name: partner.name, plan: partner.plan, subscriptionStatus: partner.subscription_status, owner };
        });
      },
    },
    createUser: {
      visibility: 'public',
      params: {
        partnerId: 'uuid', email: 'email', password: { type: 'string', min: 8, max: 72 }, name: { type: 'string', min: 2 },
        role: { type: 'enum', values: USER_ROLES.filter((r) => r !== 'SUPERADMIN') }, owner: { type: 'boolean', optional: true },
      },
      async handler(this: Auth, ctx: Ctx) {
        const d: AuthDeps = this.deps(ctx);
        await getPartner(d, ctx.params.partnerId);
        return d.knex.transaction((trx) => insertUser(d, trx, ctx.params));
      },
    },
    issueKey: {
      visibility: 'public', params: { partnerId: 'uuid', kind: { type: 'enum', values: ['live', 'test'] }, replace: { type: 'boolean', optional: true } },
      handler(this: Auth, ctx: Ctx) { return issueKey(this.deps(ctx), ctx.params.partnerId, ctx.params.kind, ctx.params.replace ?? false); },
    },
    /** The periodic purge (started below), also callable from the REPL and by tests. */
    purgeExpired: {
      visibility: 'public',
      handler(this: Auth) { return this.purge(); },
    },
    setPlan: {
      visibility: 'public',
      params: { partnerId: 'uuid', plan: { type: 'enum', values: PLANS, optional: true }, subscription: { type: 'enum', values: ['ACTIVE', 'INACTIVE'], optional: true }, enterpriseRateLimit: { type: 'number', integer: true, positive: true, optional: true, nullable: true } },
      handler(this: Auth, ctx: Ctx) { return setPlan(this.deps(ctx), ctx.params); },
    },
  },

  events: {
    // Still honoured from nodes of the previous version during a rolling deploy.
    'auth.credentials.changed': {
      handler(this: Service) { auth(this).authentications.dropAll(); },
    },
  },

  created(this: Service) {
    const self = auth(this);
    const { config, clock } = runtimeOf(self.broker);
    self.authentications = new AuthenticationCache(self.broker, { leaseMs: config.cacheLeaseMs, logger: self.logger, clock });
  },

  started(this: Service) {
    const self = auth(this);
    const { purgeIntervalMs } = runtimeOf(self.broker).config.auth;
    if (purgeIntervalMs > 0) {
      self.purgeTimer = setInterval(() => {
        // One run at a time per node; other nodes are handled by the purge itself (SKIP LOCKED).
        if (self.purgeRunning) return;
        self.purgeRunning = self.purge()
          .catch((err: Error) => self.logger.warn({ err: err.message }, 'auth purge failed; next run retries'))
          .finally(() => { self.purgeRunning = null; });
      }, purgeIntervalMs);
      self.purgeTimer.unref?.();
    }
  },

  async stopped(this: Service) {
    const self = auth(this);
    clearInterval(self.purgeTimer);
    self.authentications.close();
    await self.purgeRunning;
  },

  methods: {
    async purge(this: Auth): Promise<PurgeResult> {
      const d: AuthDeps = this.deps();
      const result = await purgeExpired(d, d.config.auth.purgeGraceMs);
      if (Object.values(result).some((n) => n > 0)) this.logger.info(result, 'auth purge: dead rows deleted');
      return result;
    },

    /** The service's dependencies; with `ctx`, their logger names the request (services/shared/request-log.ts). */
    deps(this: Auth, ctx?: Ctx): AuthDeps {
      const base = this.sharedDeps();
      return ctx?.requestID ? { ...base, logger: requestLog(this.logger, ctx.requestID) } : base;
    },

    sharedDeps(this: Auth): AuthDeps {
      if (this._deps) return this._deps;
      const { config, clock } = runtimeOf(this.broker);
      const mailer = createMailer(config.mail, () => clock.now());
      const svc = this;
      this._deps = {
        get knex() { return svc.knex; },
        t: (table: string) => this.t(table),
        config, clock, mailer, logger: this.logger, broker: this.broker,
        argon2: config.auth.argon2,
        credentialsChanged: () => this.authentications.credentialsChanged(),
        sendMail: async (to: string, subject: string, text: string) => {
          try { await mailer.send({ to, subject, text }); }
          catch (err) { this.logger.warn({ err: (err as Error).message }, 'mail not sent'); }
        },
      } satisfies AuthDeps;
      return this._deps;
    },
  },
};

export default AuthService;
