/**
 * Shows a readable page when the app could not start or crashed outside any error boundary.
 * Plain DOM on purpose: whatever failed may be React or the design system itself.
 */
export function showStartupFailure(error: unknown, root: HTMLElement | null = document.getElementById('root')): void {
  const container = root ?? document.body;
  const main = document.createElement('main');
  main.setAttribute('role', 'alert');
  main.style.cssText = 'max-width:32rem;margin:15vh auto;padding:2rem;font-family:system-ui,sans-serif;line-height:1.5';

  const heading = document.createElement('h1');
  heading.textContent = 'IVUS Review could not start';
  const text = document.createElement('p');
  text.textContent = 'Reload the page to try again. If this keeps happening, tell your administrator.';
  const detail = document.createElement('p');
  detail.style.cssText = 'opacity:0.7;font-size:0.875rem';
  detail.textContent = error instanceof Error ? error.message : String(error);
  const reload = document.createElement('button');
  reload.type = 'button';
  reload.textContent = 'Reload';
  reload.style.cssText = 'padding:0.5rem 1rem;font:inherit;cursor:pointer';
  reload.addEventListener('click', () => window.location.reload());

  main.append(heading, text, detail, reload);
  container.replaceChildren(main);
}
