/** The embedded provider's own pages, styled like the product (teal, light and dark). */
import { createHash } from 'node:crypto';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
:root{color-scheme:light dark;--bg:#f0fdfa;--card:#fff;--fg:#134e4a;--muted:#4b5563;--primary:#0f766e;--primary-hover:#115e59;--border:#99f6e4;--error-bg:#fef2f2;--error-fg:#991b1b}
@media (prefers-color-scheme:dark){:root{--bg:#042f2e;--card:#0b3b39;--fg:#ccfbf1;--muted:#9ca3af;--primary:#2dd4bf;--primary-hover:#5eead4;--border:#115e59;--error-bg:#450a0a;--error-fg:#fecaca}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:min(24rem,92vw);background:var(--card);border:1px solid var(--border);border-radius:12px;padding:2rem;box-shadow:0 10px 30px rgba(0,0,0,.12)}
h1{font-size:1.35rem;margin:0 0 .25rem}p{margin:.25rem 0 1rem;color:var(--muted)}
label{display:block;font-weight:600;margin:.9rem 0 .3rem}
input{width:100%;padding:.6rem .75rem;border:1px solid var(--border);border-radius:8px;background:transparent;color:inherit;font:inherit}
input:focus-visible,button:focus-visible,a:focus-visible{outline:1px solid var(--primary);outline-offset:2px}
button{margin-top:1.4rem;width:100%;padding:.65rem;border:0;border-radius:8px;background:var(--primary);color:#fff;font:inherit;font-weight:600;cursor:pointer;transition:background .2s}
@media (prefers-color-scheme:dark){button{color:#042f2e}}
button:hover{background:var(--primary-hover)}a{color:var(--primary)}
.error{background:var(--error-bg);color:var(--error-fg);border-radius:8px;padding:.6rem .75rem;margin:1rem 0 0}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:700;color:var(--primary);margin-bottom:1rem}
`;

function layout(title: string, body: string, extraHead = ''): string {
  return `<!doctype html><html lang="en-US"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style>${extraHead}</head>
<body><main><div class="brand" aria-hidden="true">&#9673; IVUS Review</div>${body}</main></body></html>`;
}

export function loginPage(options: { tenantName: string; action: string; email?: string; error?: string }): string {
  const error = options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : '';
  return layout(
    'Sign in · IVUS Review',
    `<h1>Sign in</h1><p>${escapeHtml(options.tenantName)}</p>${error}
<form method="post" action="${escapeHtml(options.action)}" autocomplete="on">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required autofocus value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
  );
}

export function setPasswordPage(options: {
  tenantName: string;
  action: string;
  token: string;
  email: string;
  minLength: number;
  error?: string;
}): string {
  const error = options.error ? `<div class="error" role="alert">${escapeHtml(options.error)}</div>` : '';
  return layout(
    'Set your password · IVUS Review',
    `<h1>Set your password</h1><p>${escapeHtml(options.tenantName)} · ${escapeHtml(options.email)}</p>${error}
<form method="post" action="${escapeHtml(options.action)}" autocomplete="off">
<input type="hidden" name="token" value="${escapeHtml(options.token)}">
<input type="email" name="username" autocomplete="username" value="${escapeHtml(options.email)}" hidden>
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${options.minLength}" required autofocus aria-describedby="password-hint">
<p id="password-hint">At least ${options.minLength} characters.</p>
<label for="confirm">Repeat the password</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${options.minLength}" required>
<button type="submit">Set password</button></form>`,
  );
}

export function messagePage(title: string, message: string, link?: { href: string; label: string }): string {
  const action = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : '';
  return layout(`${title} · IVUS Review`, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${action}`);
}

/** Submits the provider's logout form; allowed by its hash in the page's CSP, so no other script runs. */
const AUTO_SUBMIT_SCRIPT = "document.getElementById('op.logoutForm').submit()";
const AUTO_SUBMIT_HASH = `sha256-${createHash('sha256').update(AUTO_SUBMIT_SCRIPT).digest('base64')}`;

/**
 * The provider's sign-out page around oidc-provider's form (which carries its CSRF token). `automatic`
 * (the request named this very sign-in in its id_token_hint: the app's own Sign out) submits it at
 * once; otherwise the user is asked, so a page elsewhere cannot sign anybody out.
 */
export function logoutPage(form: string, options: { automatic: boolean; stayHref: string }): { html: string; contentSecurityPolicy: string } {
  const confirmed = form.replace('</form>', '<input type="hidden" name="logout" value="yes"></form>');
  const csp = (script: string) =>
    `default-src 'none'; style-src 'unsafe-inline'; script-src ${script}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
  if (options.automatic) {
    return {
      html: layout(
        'Signing out · IVUS Review',
        `<h1>Signing out…</h1>${confirmed}<button type="submit" form="op.logoutForm">Sign out</button>
<script>${AUTO_SUBMIT_SCRIPT}</script>`,
      ),
      contentSecurityPolicy: csp(`'${AUTO_SUBMIT_HASH}'`),
    };
  }
  return {
    html: layout(
      'Sign out? · IVUS Review',
      `<h1>Sign out?</h1><p>Do you want to sign out of IVUS Review?</p>${confirmed}<button type="submit" form="op.logoutForm">Sign out</button>
<p><a href="${escapeHtml(options.stayHref)}">Stay signed in</a></p>`,
    ),
    contentSecurityPolicy: csp("'none'"),
  };
}
