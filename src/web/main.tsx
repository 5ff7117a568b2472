import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { showStartupFailure } from './app/startup-failure.ts';
import { registerServiceWorker } from './sw/sw-client.ts';
import { applyColorMode, initialColorMode } from './ui/theme.tsx';

console.info('IVUS Review build', __BUILD_VERSION__);

// A page restored from the back-forward cache would show patient data again after sign-out;
// reloading runs the route guard afresh instead.
window.addEventListener('pageshow', (event) => {
  if (event.persisted) window.location.reload();
});

try {
  // Before the first paint, so a dark-theme user never sees a light flash.
  applyColorMode(initialColorMode());
  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element to mount into');
  const root = createRoot(container, {
    onUncaughtError: (error) => {
      console.error('IVUS Review failed', error);
      showStartupFailure(error, container);
    },
  });
  registerServiceWorker();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
} catch (error) {
  console.error('IVUS Review could not start', error);
  showStartupFailure(error);
}
