import {
  AuditPageSchema,
  UserChangeResultSchema,
  UserPageSchema,
  UserSummarySchema,
  type AuditPage,
  type CreateUserBody,
  type PasswordResetBody,
  type UpdateUserBody,
  type UserChangeResult,
  type UserListQuery,
  type UserPage,
  type UserSummary,
} from '../../../domain/users.ts';
import type { ApiClient } from '../../api/api-client.ts';

/** The users and audit calls of the API, each answer checked against the shared schema. */
export interface UsersApi {
  list(query: UserListQuery, signal?: AbortSignal): Promise<UserPage>;
  create(body: CreateUserBody): Promise<UserChangeResult>;
  update(userId: string, body: UpdateUserBody): Promise<UserSummary>;
  resetPassword(userId: string, body: PasswordResetBody): Promise<UserChangeResult>;
  /** Lets an account locked by failed sign-ins be tried again at once, from anywhere. */
  clearSignInLock(userId: string): Promise<UserSummary>;
  audit(query: { before?: number; limit: number }, signal?: AbortSignal): Promise<AuditPage>;
}

export function usersApi(api: ApiClient): UsersApi {
  return {
    list: (query, signal) => api.get(UserPageSchema, 'users', { query, signal }),
    create: (body) => api.request({ resource: 'users', method: 'POST', body, schema: UserChangeResultSchema }),
    update: (userId, body) => api.request({ resource: 'users', pathParams: [userId], method: 'PATCH', body, schema: UserSummarySchema }),
    resetPassword: (userId, body) =>
      api.request({ resource: 'users', pathParams: [userId, 'password-reset'], method: 'POST', body, schema: UserChangeResultSchema }),
    clearSignInLock: (userId) => api.request({ resource: 'users', pathParams: [userId, 'sign-in-lock'], method: 'DELETE', schema: UserSummarySchema }),
    audit: (query, signal) => api.get(AuditPageSchema, 'audit', { query, signal }),
  };
}
