import { AuthInfoSchema, type AuthInfo } from '../../domain/auth-info.ts';
import { ApiErrorSchema } from '../../domain/patients.ts';

/** The tenant's sign-in configuration could not be loaded; `status` is 0 when the server was not reached. */
export class AuthInfoError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'AuthInfoError';
    this.status = status;
  }
}

export function authInfoUrl(tenant: string): string {
  return `/api/auth-info?tenantId=${encodeURIComponent(tenant)}`;
}

/** `GET /api/auth-info` (no authorization). Spec section 8: on failure the HTTP status is logged and the error rethrown. */
export async function fetchAuthInfo(tenant: string, fetchImpl: typeof fetch = (...args) => fetch(...args)): Promise<AuthInfo> {
  let response: Response;
  try {
    response = await fetchImpl(authInfoUrl(tenant), { headers: { Accept: 'application/json' } });
  } catch (error) {
    console.error('Unable to load the sign-in configuration: the server was not reached', error);
    throw new AuthInfoError(0, 'The server could not be reached. Check the connection and try again.');
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    console.error(`Unable to load the sign-in configuration: HTTP ${response.status}`);
    const apiError = ApiErrorSchema.safeParse(body);
    throw new AuthInfoError(
      response.status,
      apiError.success ? apiError.data.message : `The server answered with HTTP ${response.status}.`,
    );
  }
  const parsed = AuthInfoSchema.safeParse(body);
  if (!parsed.success) {
    console.error('Unable to load the sign-in configuration: unexpected answer', parsed.error.issues);
    throw new AuthInfoError(response.status, 'The sign-in configuration sent by the server is incomplete.');
  }
  return parsed.data;
}
