import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { loadTenantSecrets } from '../db/secrets.ts';
import { DatabaseAdapter } from './adapter.ts';
import { appendAudit } from '../db/audit.ts';
import { findUserById } from '../db/tenants.ts';
import type { AccountChecks } from '../auth/account-check.ts';
import type { TenantAuth } from '../auth/tenant-directory.ts';
import { logoutPage, messagePage } from './pages.ts';

/** Where the provider is mounted on every tenant's origin. */
export const IDP_MOUNT_PATH = '/idp';

async function buildProvider(db: Db, config: Config, tenant: TenantAuth, log: FastifyBaseLogger, accounts: AccountChecks): Promise<Provider> {
  const secrets = await loadTenantSecrets(db, tenant.tenantId);
  const configuration: Configuration = {
    adapter: (model: string) => new DatabaseAdapter(db, tenant.tenantId, model),
    clients: [
      {
        client_id: tenant.clientId,
        client_name: 'IVUS Review',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [`${tenant.origin}/callback`, `${tenant.origin}/silent-renew`],
        post_logout_redirect_uris: [`${tenant.origin}/`],
      },
    ],
    jwks: { keys: secrets.signingKeys as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: secrets.cookieKeys },
    async findAccount(_ctx, sub) {
      const user = await findUserById(db, tenant.tenantId, sub);
      if (!user || user.disabled) return undefined;
      return {
        accountId: user.id,
        claims: () => ({
          sub: user.id,
          email: user.email,
          email_verified: true,
          name: user.name,
          groups: user.groups,
          // The credential version at issue: the API refuses the token once it changes (auth/account-check.ts).
          cv: user.credentialVersion,
        }),
      };
    },
    claims: {
      openid: ['sub', 'groups', 'cv'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      phone: ['phone_number', 'phone_number_verified'],
    },
    // The SPA authorises API calls with the ID token (spec section 7), so the scope's claims
    // (email, groups) must be in the ID token itself, not only behind userinfo.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // Another site may send a browser here: only this sign-in's own ID token as id_token_hint
        // (the app's Sign out) signs out without asking; otherwise the user confirms with the
        // provider's form, which carries its CSRF token (xsrf).
        async logoutSource(ctx, form) {
          const hint = ctx.oidc.entities.IdTokenHint as { payload?: Record<string, unknown> } | undefined;
          const session = ctx.oidc.session;
          const fromThisSignIn =
            hint?.payload !== undefined &&
            session?.accountId !== undefined &&
            hint.payload.sub === session.accountId &&
            typeof hint.payload.sid === 'string' &&
            hint.payload.sid === session.sidFor(tenant.clientId);
          const page = logoutPage(form, { automatic: fromThisSignIn, stayHref: `${tenant.origin}/` });
          ctx.type = 'html';
          ctx.set('content-security-policy', page.contentSecurityPolicy);
          ctx.set('x-frame-options', 'DENY');
          ctx.set('referrer-policy', 'no-referrer');
          ctx.body = page.html;
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = messagePage('Signed out', 'You are signed out.', { href: `${tenant.origin}/login`, label: 'Sign in again' });
        },
      },
    },
    // Refresh tokens for silent renew; without offline_access they end with the sign-in session,
    // so signing out kills them.
    async issueRefreshToken(_ctx, client) {
      return client.grantTypeAllowed('refresh_token');
    },
    interactions: {
      url: (_ctx, interaction) => `${IDP_MOUNT_PATH}/interaction/${interaction.uid}`,
    },
    ttl: {
      AccessToken: config.tokenTtlSeconds,
      IdToken: config.tokenTtlSeconds,
      AuthorizationCode: 60,
      Interaction: 3600,
      Session: config.sessionTtlSeconds,
      Grant: config.sessionTtlSeconds,
      RefreshToken: config.sessionTtlSeconds,
    },
    async renderError(ctx: KoaContextWithOIDC, out) {
      ctx.type = 'html';
      const description = typeof out.error_description === 'string' ? out.error_description : 'The sign-in request could not be completed.';
      ctx.body = messagePage('Sign-in problem', description, { href: `${tenant.origin}/login`, label: 'Start again' });
    },
  };
  const provider = new Provider(tenant.issuer, configuration);
  // Every ID token carries its sign-in's session id (`sid`), which the API checks on each request.
  // oidc-provider's own switch for it is tied to back-channel logout, which this client does not use.
  provider.Client.prototype.includeSid = () => true;
  provider.proxy = config.trustProxy;
  // RFC 7009 answers a revocation with an empty 200, which Koa labels text/plain; browsers'
  // OIDC clients (oidc-client-ts) accept only JSON, so answer with an empty JSON object.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/token/revocation' && ctx.status === 200) {
      ctx.body = '{}';
      ctx.type = 'application/json';
    }
  });
  // Sign-out is confirmed on the provider (the app's /logout ends here): audit it once the session is gone.
  provider.use(async (ctx, next) => {
    await next();
    const accountId = ctx.oidc?.route === 'end_session_confirm' && ctx.status === 303 ? ctx.oidc.session?.accountId : undefined;
    if (!accountId) return;
    // The session row is gone; this replica stops accepting its tokens now, the others within ACCOUNT_CHECK_CACHE_MS.
    accounts.forgetAccount(tenant.tenantId, accountId);
    const user = await findUserById(db, tenant.tenantId, accountId);
    await appendAudit(db, {
      tenantId: tenant.tenantId,
      action: 'sign-out',
      actorId: accountId,
      actorEmail: user?.email ?? null,
      targetType: 'session',
    }).catch((err: unknown) => log.error({ err, tenant: tenant.tenantId }, 'sign-out not audited'));
  });
  provider.on('server_error', (_ctx, error) => log.error({ err: error, tenant: tenant.tenantId }, 'identity provider error'));
  return provider;
}


/** One provider per tenant, built on first use from the tenant's row and stored secrets. */
export class ProviderRegistry {
  private readonly providers = new Map<string, Promise<Provider>>();
  private readonly db: Db;
  private readonly config: Config;
  private readonly log: FastifyBaseLogger;
  /** The API's per-replica memory of accounts and sign-ins, forgotten when a sign-in ends here. */
  readonly accounts: AccountChecks;

  constructor(db: Db, config: Config, log: FastifyBaseLogger, accounts: AccountChecks) {
    this.db = db;
    this.config = config;
    this.log = log;
    this.accounts = accounts;
  }

  get(tenant: TenantAuth): Promise<Provider> {
    let provider = this.providers.get(tenant.tenantId);
    if (!provider) {
      provider = buildProvider(this.db, this.config, tenant, this.log, this.accounts);
      provider.catch(() => this.providers.delete(tenant.tenantId));
      this.providers.set(tenant.tenantId, provider);
    }
    return provider;
  }
}
