import type { AuditEntry, UserSummary } from '../../../src/domain/users.ts';
import { fakeApi } from '../render.tsx';

export const ADMIN: UserSummary = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'admin@demo.test',
  name: 'Dr. Alex Admin',
  groups: ['Admins'],
  isAdmin: true,
  disabled: false,
  lastSignInAt: '2026-03-05T10:30:00Z',
  createdAt: '2026-01-01T00:00:00Z',
};

export const CLINICIAN: UserSummary = {
  id: '22222222-2222-4222-8222-222222222222',
  email: 'clinician@demo.test',
  name: 'Dr. Casey Clinician',
  groups: [],
  isAdmin: false,
  disabled: false,
  lastSignInAt: null,
  createdAt: '2026-01-01T00:00:00Z',
};

type Answer = Response | undefined;

/**
 * A small stand-in for the users and audit API: keeps accounts in memory, applies changes, and
 * lets a test answer a request itself first (`override`), e.g. to fail it.
 */
export function usersServer({ users = [ADMIN, CLINICIAN], audit = [] as AuditEntry[] } = {}) {
  const accounts = users.map((user) => ({ ...user }));
  let override: ((url: URL, init: RequestInit | undefined) => Answer) | null = null;
  let linkCount = 0;

  const link = () => ({
    url: `http://demo.localhost:8080/idp/set-password?token=one-time-token-${++linkCount}`,
    expiresAt: '2026-03-06T10:30:00Z',
  });

  const { client, requests } = fakeApi((url, init) => {
    const overridden = override?.(url, init);
    if (overridden) return overridden;
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : {};
    const path = url.pathname.replace(/^\/api\/demo\//, '');
    if (path === 'users' && method === 'GET') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 25);
      const matching = accounts.filter((u) => !search || u.email.includes(search) || u.name.toLowerCase().includes(search));
      return Response.json({ items: matching.slice(offset, offset + limit), total: matching.length, offset, limit });
    }
    if (path === 'users' && method === 'POST') {
      if (accounts.some((u) => u.email === body.email)) {
        return Response.json({ error: 'conflict', message: `An account with the email ${body.email} already exists.` }, { status: 409 });
      }
      const user: UserSummary = { ...CLINICIAN, id: `33333333-3333-4333-8333-${String(accounts.length).padStart(12, '0')}`, email: body.email, name: body.name };
      accounts.push(user);
      return Response.json({ user, setPasswordLink: body.password ? null : link() }, { status: 201 });
    }
    const match = /^users\/([^/]+)(\/password-reset|\/sign-in-lock)?$/.exec(path);
    const account = match ? accounts.find((u) => u.id === match[1]) : undefined;
    if (match && !account) return Response.json({ error: 'not_found', message: 'No such user.' }, { status: 404 });
    if (account && method === 'PATCH') {
      if (body.admin !== undefined) {
        account.isAdmin = body.admin;
        account.groups = body.admin ? ['Admins'] : [];
      }
      if (body.disabled !== undefined) account.disabled = body.disabled;
      return Response.json(account);
    }
    if (account && match?.[2] === '/sign-in-lock' && method === 'DELETE') {
      account.signInLock = null;
      return Response.json(account);
    }
    if (account && match?.[2] && method === 'POST') {
      return Response.json({ user: account, setPasswordLink: body.password ? null : link() });
    }
    if (path === 'audit') {
      const before = url.searchParams.get('before');
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const older = audit.filter((entry) => before === null || entry.id < Number(before));
      const items = older.slice(0, limit);
      return Response.json({ items, nextBefore: older.length > limit ? (items.at(-1)?.id ?? null) : null });
    }
    return Response.json({ error: 'not_found', message: `No route ${method} ${path}` }, { status: 404 });
  });

  return {
    client,
    accounts,
    requests,
    override: (answer: typeof override) => {
      override = answer;
    },
  };
}
