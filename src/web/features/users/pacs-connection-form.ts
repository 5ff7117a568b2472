import { MAX_PACS_STUDIES, PacsConnectionInputSchema, type PacsAuthKind, type PacsConnection, type PacsConnectionInput, type PacsTestResult } from '../../../domain/pacs.ts';

/** What the connection dialog holds while it is edited. */
export interface PacsConnectionDraft {
  name: string;
  qidoUrl: string;
  /** Whether the separate WADO-RS / STOW-RS addresses are open (closed: all three are the QIDO-RS address). */
  separate: boolean;
  wadoUrl: string;
  stowUrl: string;
  authKind: PacsAuthKind;
  username: string;
  password: string;
  token: string;
}

export type PacsFieldName = 'name' | 'qidoUrl' | 'wadoUrl' | 'stowUrl' | 'username' | 'password' | 'token';
export type PacsFieldErrors = Partial<Record<PacsFieldName, string>>;

export const AUTH_KIND_LABELS: Record<PacsAuthKind, string> = {
  none: 'None',
  basic: 'Basic (user name and password)',
  bearer: 'Bearer token',
};

/** A new connection's form, or a saved one's (its credentials are never sent to the page, so their fields start empty). */
export function draftOf(connection: PacsConnection | null): PacsConnectionDraft {
  if (!connection) {
    return { name: '', qidoUrl: '', separate: false, wadoUrl: '', stowUrl: '', authKind: 'none', username: '', password: '', token: '' };
  }
  const separate = connection.wadoUrl !== connection.qidoUrl || connection.stowUrl !== connection.qidoUrl;
  return {
    name: connection.name,
    qidoUrl: connection.qidoUrl,
    separate,
    wadoUrl: separate ? connection.wadoUrl : '',
    stowUrl: separate ? connection.stowUrl : '',
    authKind: connection.authKind,
    username: '',
    password: '',
    token: '',
  };
}

/** Whether the saved connection holds a secret this form may leave empty to keep (same kind of authentication). */
export function keepsStoredSecret(connection: PacsConnection | null, draft: PacsConnectionDraft): boolean {
  return connection !== null && connection.hasCredentials && connection.authKind === draft.authKind && draft.authKind !== 'none';
}

/** Whether the secret field of the chosen authentication is empty. */
export function secretEmpty(draft: PacsConnectionDraft): boolean {
  if (draft.authKind === 'basic') return draft.password === '';
  if (draft.authKind === 'bearer') return draft.token === '';
  return false;
}

/**
 * The API body of the draft: an empty separate address is left out (the server then uses the
 * QIDO-RS one), and so is an empty password or token (on a change: the stored one is kept).
 */
export function inputOf(draft: PacsConnectionDraft): PacsConnectionInput {
  const wadoUrl = draft.separate && draft.wadoUrl.trim() ? { wadoUrl: draft.wadoUrl } : {};
  const stowUrl = draft.separate && draft.stowUrl.trim() ? { stowUrl: draft.stowUrl } : {};
  let auth: PacsConnectionInput['auth'];
  if (draft.authKind === 'basic') auth = { kind: 'basic', username: draft.username, ...(draft.password ? { password: draft.password } : {}) };
  else if (draft.authKind === 'bearer') auth = { kind: 'bearer', ...(draft.token ? { token: draft.token } : {}) };
  else auth = { kind: 'none' };
  return { name: draft.name, qidoUrl: draft.qidoUrl, ...wadoUrl, ...stowUrl, auth };
}

/** The schema's phrases ('a name', 'at most 80 characters') as a field's message. */
function sentence(message: string): string {
  const text = message.trim();
  if (/^(a|an) /.test(text)) return `Enter ${text}.`;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.)]$/.test(text) ? '' : '.'}`;
}

/** The form field an API path names ('auth' alone: the secret of the chosen kind). */
function fieldOf(path: string, authKind: PacsAuthKind): PacsFieldName | null {
  switch (path) {
    case 'name':
    case 'qidoUrl':
    case 'wadoUrl':
    case 'stowUrl':
      return path;
    case 'auth.username':
      return 'username';
    case 'auth.password':
      return 'password';
    case 'auth.token':
      return 'token';
    case 'auth':
      return authKind === 'basic' ? 'password' : authKind === 'bearer' ? 'token' : null;
    default:
      return null;
  }
}

/**
 * The draft checked as the server checks it (the same schema), and a secret required unless a
 * stored one is kept. Answers the body to send, or the message of each field at fault.
 */
export function validateDraft(draft: PacsConnectionDraft, connection: PacsConnection | null): { input: PacsConnectionInput | null; errors: PacsFieldErrors } {
  const errors: PacsFieldErrors = {};
  const parsed = PacsConnectionInputSchema.safeParse(inputOf(draft));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.join('.'), draft.authKind);
      if (field && !errors[field]) errors[field] = field === 'username' && draft.username === '' ? 'Enter the user name.' : sentence(issue.message);
    }
  }
  if (secretEmpty(draft) && !keepsStoredSecret(connection, draft)) {
    if (draft.authKind === 'basic') errors.password ??= 'Enter the password.';
    else errors.token ??= 'Enter the token.';
  }
  return { input: parsed.success && Object.keys(errors).length === 0 ? parsed.data : null, errors };
}

/**
 * A 400's message ('qidoUrl: an http:// … address; auth: a password is required …') shared out to
 * the fields it names; what names no field is answered as `rest`, for the dialog itself.
 */
export function serverFieldErrors(message: string, authKind: PacsAuthKind): { errors: PacsFieldErrors; rest: string | null } {
  const errors: PacsFieldErrors = {};
  const rest: string[] = [];
  for (const part of message.split('; ')) {
    const match = /^([A-Za-z.]+): (.+)$/.exec(part);
    const field = match ? fieldOf(match[1]!, authKind) : null;
    if (field && match) errors[field] ??= sentence(match[2]!);
    else rest.push(part);
  }
  return { errors, rest: rest.length > 0 ? rest.join('; ') : null };
}

/** "Connected: 12 studies visible, in 85 ms" (a search shows at most MAX_PACS_STUDIES, so that many may mean more). */
export function testResultSentence(result: PacsTestResult): string {
  const studies = result.studiesFound >= MAX_PACS_STUDIES ? `${MAX_PACS_STUDIES} or more studies` : `${result.studiesFound} ${result.studiesFound === 1 ? 'study' : 'studies'}`;
  return `Connected: ${studies} visible, in ${Math.round(result.milliseconds)} ms`;
}
