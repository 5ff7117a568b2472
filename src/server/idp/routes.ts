import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { errors } from 'oidc-provider';
import { UNUSABLE_PASSWORD_HASH, verifyPassword } from '../crypto/passwords.ts';
import { appendAudit } from '../db/audit.ts';
import { findUserByEmail, recordSignIn } from '../db/tenants.ts';
import { loginPage, messagePage } from './pages.ts';
import { sendPage, tenantOf, type Deps } from './page-response.ts';
import { setPasswordRoutes } from './set-password.ts';
import { createSignInThrottle } from './sign-in-throttle.ts';
import { DeviceCookies } from './device-cookie.ts';
import { IDP_MOUNT_PATH } from './provider.ts';

const WRONG_CREDENTIALS = 'Incorrect email or password.';
const tooManyFailures = (seconds: number) =>
  `Too many failed sign-ins. Try again in ${seconds} s${seconds >= 120 ? ` (about ${Math.round(seconds / 60)} minutes)` : ''}.`;
/** A failed sign-in keeps the email as typed in the audit trail, cut to a sane length. */
const MAX_AUDITED_EMAIL_LENGTH = 254;

/**
 * The embedded OpenID Connect provider under /idp on every tenant's origin: the protocol
 * endpoints are oidc-provider's own; the sign-in interaction is ours.
 */
export async function identityProviderRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const throttle = createSignInThrottle(app);
  const devices = new DeviceCookies(deps.db);

  async function interactionContext(request: FastifyRequest, reply: FastifyReply) {
    const tenant = await tenantOf(deps, request);
    if (!tenant) {
      await sendPage(reply, 404, messagePage('Unknown organisation', 'No organisation signs in at this address.'));
      return null;
    }
    const provider = await deps.providers.get(tenant);
    try {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      return { tenant, provider, details };
    } catch (error) {
      if (!(error instanceof errors.SessionNotFound)) throw error;
      await sendPage(
        reply,
        400,
        messagePage('Sign-in expired', 'This sign-in page has expired. Please start again.', { href: `${tenant.origin}/login`, label: 'Sign in' }),
      );
      return null;
    }
  }

  app.get<{ Params: { uid: string } }>(`${IDP_MOUNT_PATH}/interaction/:uid`, async (request, reply) => {
    const context = await interactionContext(request, reply);
    if (!context) return reply;
    const { tenant, provider, details } = context;
    if (details.prompt.name === 'login') {
      return sendPage(reply, 200, loginPage({ tenantName: tenant.name, action: `${IDP_MOUNT_PATH}/interaction/${details.uid}/login` }));
    }
    // Our single-page app is a first-party client: consent is granted without asking.
    const accountId = details.session?.accountId;
    if (!accountId) throw new Error('consent prompt without a signed-in account');
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId: tenant.clientId }))
      : new provider.Grant({ accountId, clientId: tenant.clientId });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    reply.hijack();
    await provider.interactionFinished(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return reply;
  });

  await app.register(async (form) => {
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    form.post<{ Params: { uid: string }; Body: Record<string, string> }>(
      `${IDP_MOUNT_PATH}/interaction/:uid/login`,
      async (request, reply) => {
        const context = await interactionContext(request, reply);
        if (!context) return reply;
        const { tenant, provider, details } = context;
        const typedEmail = String(request.body?.email ?? '');
        const email = typedEmail.trim().toLowerCase();
        const password = String(request.body?.password ?? '');
        const action = `${IDP_MOUNT_PATH}/interaction/${details.uid}/login`;
        const refuseThrottled = (seconds: number) => {
          reply.header('retry-after', String(seconds));
          return sendPage(reply, 429, loginPage({ tenantName: tenant.name, action, email, error: tooManyFailures(seconds) }));
        };
        const user = email ? await findUserByEmail(deps.db, tenant.tenantId, email) : undefined;
        // A browser that signed in to this account before is throttled on its own (idp/device-cookie.ts).
        const deviceId = user ? await devices.deviceIdOf(request, tenant, user.id) : undefined;
        const attempt = { tenantId: tenant.tenantId, email, deviceId };
        // Locked: answered before any password is checked, so a right guess now signs nobody in.
        const locked = await throttle.retryAfterSeconds(request, attempt);
        if (locked > 0) return refuseThrottled(locked);
        // Always pay for one hash check, so the answer's timing does not tell whether the account exists.
        const passwordOk = await verifyPassword(password, user?.passwordHash ?? UNUSABLE_PASSWORD_HASH);
        if (!user || !passwordOk || user.disabled) {
          request.log.info({ tenant: tenant.tenantId }, 'sign-in refused');
          // The trail says why (for administrators); the page does not (for whoever is typing).
          await appendAudit(deps.db, {
            tenantId: tenant.tenantId,
            action: 'sign-in-failed',
            actorId: user?.id ?? null,
            actorEmail: typedEmail.slice(0, MAX_AUDITED_EMAIL_LENGTH),
            targetType: 'session',
            details: { reason: !user ? 'unknown account' : !passwordOk ? 'wrong password' : 'account disabled' },
          });
          const wait = await throttle.recordFailure(request, attempt);
          if (wait > 0) {
            // Once per lock (the attempts it refuses are not written), so a flood cannot flood the trail.
            await appendAudit(deps.db, {
              tenantId: tenant.tenantId,
              action: 'sign-in-throttled',
              actorId: user?.id ?? null,
              actorEmail: typedEmail.slice(0, MAX_AUDITED_EMAIL_LENGTH),
              targetType: 'session',
              details: { retryAfterSeconds: wait, address: request.ip, knownDevice: deviceId !== undefined },
            });
            return refuseThrottled(wait);
          }
          return sendPage(reply, 401, loginPage({ tenantName: tenant.name, action, email, error: WRONG_CREDENTIALS }));
        }
        await deps.db.transaction(async (tx) => {
          await recordSignIn(tx, tenant.tenantId, user.id);
          await appendAudit(tx, { tenantId: tenant.tenantId, action: 'sign-in', actorId: user.id, actorEmail: user.email, targetType: 'session' });
        });
        // Set on the raw response: the provider appends its own cookies to it when it finishes.
        reply.raw.setHeader('set-cookie', [await devices.issue(tenant, user.id, deviceId)]);
        reply.hijack();
        await provider.interactionFinished(request.raw, reply.raw, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
        return reply;
      },
    );
    await setPasswordRoutes(form, deps);
  });

  // Everything else under /idp is the provider's protocol surface (discovery, authorize,
  // token, userinfo, revocation, end session, jwks). The body stream is left unread for it.
  await app.register(async (protocol) => {
    protocol.removeAllContentTypeParsers();
    protocol.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    protocol.all(`${IDP_MOUNT_PATH}/*`, async (request, reply) => {
      const tenant = await tenantOf(deps, request);
      if (!tenant) return sendPage(reply, 404, messagePage('Unknown organisation', 'No organisation signs in at this address.'));
      const provider = await deps.providers.get(tenant);
      let handle = handlers.get(provider);
      if (!handle) {
        handle = provider.callback();
        handlers.set(provider, handle);
      }
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = raw.url!.slice(IDP_MOUNT_PATH.length) || '/';
      reply.hijack();
      await handle(raw, reply.raw);
      return reply;
    });
  });
}
