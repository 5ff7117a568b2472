import { z } from 'zod';

/**
 * User administration and the audit trail: the payloads of `/api/{tenant}/users` and
 * `/api/{tenant}/audit`, validated with the same schemas by the server and the browser.
 */

export const PASSWORD_MIN_LENGTH = 12;
/** scrypt reads every byte; a bound keeps one request from costing much more than another. */
export const PASSWORD_MAX_LENGTH = 200;
/** A one-time set-password link works this long, and only once. */
export const SET_PASSWORD_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** The identity provider's public page that takes a one-time set-password token (`?token=`). */
export const SET_PASSWORD_PATH = '/idp/set-password';

export const MAX_USER_PAGE_SIZE = 100;
export const DEFAULT_USER_PAGE_SIZE = 25;
export const MAX_AUDIT_PAGE_SIZE = 200;
export const DEFAULT_AUDIT_PAGE_SIZE = 50;

export const PasswordSchema = z
  .string({ error: 'password must be text' })
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `password must be ${PASSWORD_MAX_LENGTH} characters or less`);

export const UserSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  groups: z.array(z.string()),
  isAdmin: z.boolean(),
  disabled: z.boolean(),
  /** ISO timestamp, or null for an account that never signed in. */
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  /**
   * The account's sign-in lock, when failed sign-ins have locked it (on the list only; absent on
   * other answers). `until`: ISO time the last lock ends; `accountWide`: browsers that never signed in
   * to it are locked out (its owner's own still work); `clients`: addresses or browsers locked out.
   */
  signInLock: z.object({ until: z.string(), accountWide: z.boolean(), clients: z.number().int().nonnegative() }).nullable().optional(),
});
export type UserSummary = z.infer<typeof UserSummarySchema>;

/** Query of `GET /api/{tenant}/users`; query strings arrive as text, hence the coercion. */
export const UserListQuerySchema = z
  .object({
    search: z.string().trim().max(100, 'search must be 100 characters or less').default(''),
    offset: z.coerce.number({ error: 'offset must be a whole number' }).int('offset must be a whole number').min(0, 'offset must be 0 or more').default(0),
    limit: z.coerce
      .number({ error: 'limit must be a whole number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be 1 or more')
      .max(MAX_USER_PAGE_SIZE, `limit must be ${MAX_USER_PAGE_SIZE} or less`)
      .default(DEFAULT_USER_PAGE_SIZE),
  })
  .strict();
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

export const UserPageSchema = z.object({
  items: z.array(UserSummarySchema),
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
});
export type UserPage = z.infer<typeof UserPageSchema>;

/** Body of `POST /api/{tenant}/users`: without a password the answer carries a one-time set-password link. */
export const CreateUserBodySchema = z
  .object({
    email: z
      .string({ error: 'email is required' })
      .trim()
      .toLowerCase()
      .pipe(z.email({ error: 'email must be an email address' }).max(254, 'email must be 254 characters or less')),
    name: z
      .string({ error: 'name is required' })
      .trim()
      .min(1, 'name is required')
      .max(200, 'name must be 200 characters or less'),
    password: PasswordSchema.optional(),
  })
  .strict();
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

/** Body of `PATCH /api/{tenant}/users/{id}`. */
export const UpdateUserBodySchema = z
  .object({
    admin: z.boolean({ error: 'admin must be true or false' }).optional(),
    disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
  })
  .strict()
  .refine((body) => body.admin !== undefined || body.disabled !== undefined, 'give admin or disabled (or both)');
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

/** Body of `POST /api/{tenant}/users/{id}/password-reset`: a password to set, or nothing for a new one-time link. */
export const PasswordResetBodySchema = z.object({ password: PasswordSchema.optional() }).strict();
export type PasswordResetBody = z.infer<typeof PasswordResetBodySchema>;

export const SetPasswordLinkSchema = z.object({
  url: z.string(),
  /** ISO timestamp after which the link no longer works. */
  expiresAt: z.string(),
});
export type SetPasswordLink = z.infer<typeof SetPasswordLinkSchema>;

/** Answer of a create or a password reset: the link is only ever sent here, once. */
export const UserChangeResultSchema = z.object({
  user: UserSummarySchema,
  setPasswordLink: SetPasswordLinkSchema.nullable(),
});
export type UserChangeResult = z.infer<typeof UserChangeResultSchema>;

/** Query of `GET /api/{tenant}/audit`: newest first; `before` is the last id of the previous page. */
export const AuditQuerySchema = z
  .object({
    before: z.coerce.number({ error: 'before must be an entry id' }).int('before must be an entry id').positive('before must be an entry id').optional(),
    limit: z.coerce
      .number({ error: 'limit must be a whole number' })
      .int('limit must be a whole number')
      .min(1, 'limit must be 1 or more')
      .max(MAX_AUDIT_PAGE_SIZE, `limit must be ${MAX_AUDIT_PAGE_SIZE} or less`)
      .default(DEFAULT_AUDIT_PAGE_SIZE),
  })
  .strict();
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditPageSchema = z.object({
  items: z.array(AuditEntrySchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;
