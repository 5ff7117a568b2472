import type { FastifyInstance, FastifyReply } from 'fastify';
import { PASSWORD_MIN_LENGTH, PasswordSchema, SET_PASSWORD_PATH } from '../../domain/users.ts';
import type { TenantAuth } from '../auth/tenant-directory.ts';
import { hashPassword } from '../crypto/passwords.ts';
import { consumePasswordToken, findPasswordTokenUser } from '../db/users.ts';
import { messagePage, setPasswordPage } from './pages.ts';
import { sendPage, tenantOf, type Deps } from './page-response.ts';

function unknownOrganisation(reply: FastifyReply) {
  return sendPage(reply, 404, messagePage('Unknown organisation', 'No organisation signs in at this address.'));
}

function linkNotValid(reply: FastifyReply, tenant: TenantAuth) {
  return sendPage(
    reply,
    410,
    messagePage(
      'Link no longer valid',
      'This set-password link has expired or has already been used. Ask your administrator for a new one.',
      { href: `${tenant.origin}/login`, label: 'Go to sign-in' },
    ),
  );
}

/**
 * The public page behind a one-time set-password link (`/idp/set-password?token=…`): shows the
 * form while the token is usable, and spends the token when the password is set. Registered in
 * the provider's form scope, which reads url-encoded bodies.
 */
export async function setPasswordRoutes(form: FastifyInstance, deps: Deps): Promise<void> {
  form.get<{ Querystring: { token?: string } }>(SET_PASSWORD_PATH, async (request, reply) => {
    const tenant = await tenantOf(deps, request);
    if (!tenant) return unknownOrganisation(reply);
    const token = String(request.query.token ?? '');
    const user = token ? await findPasswordTokenUser(deps.db, tenant.tenantId, token) : undefined;
    if (!user) return linkNotValid(reply, tenant);
    return sendPage(
      reply,
      200,
      setPasswordPage({ tenantName: tenant.name, action: SET_PASSWORD_PATH, token, email: user.email, minLength: PASSWORD_MIN_LENGTH }),
    );
  });

  form.post<{ Body: Record<string, string> }>(SET_PASSWORD_PATH, async (request, reply) => {
    const tenant = await tenantOf(deps, request);
    if (!tenant) return unknownOrganisation(reply);
    const token = String(request.body?.token ?? '');
    const password = String(request.body?.password ?? '');
    const confirm = String(request.body?.confirm ?? '');
    const user = token ? await findPasswordTokenUser(deps.db, tenant.tenantId, token) : undefined;
    if (!user) return linkNotValid(reply, tenant);

    const parsed = PasswordSchema.safeParse(password);
    const problem = !parsed.success
      ? `The ${parsed.error.issues[0]?.message ?? 'password is not valid'}.`
      : password !== confirm
        ? 'The two passwords differ. Type the same password twice.'
        : null;
    if (problem) {
      return sendPage(
        reply,
        400,
        setPasswordPage({ tenantName: tenant.name, action: SET_PASSWORD_PATH, token, email: user.email, minLength: PASSWORD_MIN_LENGTH, error: problem }),
      );
    }

    const changed = await consumePasswordToken(deps.db, tenant.tenantId, token, await hashPassword(password));
    if (!changed) return linkNotValid(reply, tenant);
    deps.providers.accounts.forgetAccount(tenant.tenantId, changed.id);
    return sendPage(
      reply,
      200,
      messagePage('Password set', `The password of ${changed.email} is set. You can sign in with it now.`, {
        href: `${tenant.origin}/login`,
        label: 'Sign in',
      }),
    );
  });
}
