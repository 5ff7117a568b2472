import { describe, expect, it } from 'vitest';
import {
  decodeJwtClaims,
  groupsFromIdToken,
  isAdminToken,
  isCompleteUser,
  toAuthUser,
} from '../../../src/web/auth/session-user.ts';
import { fakeIdToken } from '../fake-token.ts';

describe('group membership from the id token', () => {
  it('reads the groups claim', () => {
    const token = fakeIdToken({ sub: 'u1', groups: ['Admins', 'Cardiology'] });
    expect(groupsFromIdToken(token)).toEqual(['Admins', 'Cardiology']);
    expect(isAdminToken(token)).toBe(true);
  });

  it("reads Cognito's cognito:groups claim", () => {
    const token = fakeIdToken({ sub: 'u1', 'cognito:groups': ['Admins'] });
    expect(isAdminToken(token)).toBe(true);
  });

  it('is not admin without the Admins group', () => {
    expect(isAdminToken(fakeIdToken({ sub: 'u1', groups: ['Clinicians'] }))).toBe(false);
    expect(isAdminToken(fakeIdToken({ sub: 'u1', groups: ['admins'] }))).toBe(false);
    expect(isAdminToken(fakeIdToken({ sub: 'u1' }))).toBe(false);
  });

  it('yields no groups for a token that cannot be decoded', () => {
    expect(groupsFromIdToken('not-a-jwt')).toEqual([]);
    expect(groupsFromIdToken('a.%%%.c')).toEqual([]);
    expect(groupsFromIdToken(`a.${btoa('[1,2]')}.c`)).toEqual([]);
    expect(groupsFromIdToken(undefined)).toEqual([]);
    expect(decodeJwtClaims('a.bm90IGpzb24.c')).toBeNull();
  });

  it('decodes non-ASCII claims', () => {
    expect(decodeJwtClaims(fakeIdToken({ name: 'Zoë Müller' }))?.name).toBe('Zoë Müller');
  });
});

describe('a complete user', () => {
  const idToken = fakeIdToken({ sub: 'u1', email: 'a@demo.test', groups: ['Admins'] });

  it('needs an email, an access token and an id token', () => {
    expect(isCompleteUser({ profile: { email: 'a@demo.test' }, access_token: 'x', id_token: idToken })).toBe(true);
    expect(isCompleteUser({ profile: { email: '' }, access_token: 'x', id_token: idToken })).toBe(false);
    expect(isCompleteUser({ profile: { email: 'a@demo.test' }, access_token: '', id_token: idToken })).toBe(false);
    expect(isCompleteUser({ profile: { email: 'a@demo.test' }, access_token: 'x' })).toBe(false);
    expect(isCompleteUser(null)).toBe(false);
  });

  it('becomes the screens’ user with Bearer as the default token type', () => {
    const user = toAuthUser({ profile: { email: 'a@demo.test' }, access_token: 'x', id_token: idToken, token_type: '' });
    expect(user).toMatchObject({ email: 'a@demo.test', name: 'a@demo.test', tokenType: 'Bearer', isAdmin: true });
  });
});
