/** The page's side of the frames service worker. */
import { isFramesCache, type PageMessage, type WorkerMessage } from './messages.ts';

export type { WorkerMessage };

/** Registers the worker as a module at start-up; a failure is logged and the app works without it. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const url = import.meta.env.DEV ? '/src/web/sw/service-worker.ts' : '/sw.js';
  navigator.serviceWorker.register(url, { type: 'module', scope: '/' }).catch((error: unknown) => {
    console.error('Service worker registration failed', error);
  });
}

/** Sends a message to the active worker once there is one (the first visit waits for it to take control). */
export async function postToServiceWorker(message: PageMessage): Promise<boolean> {
  if (!('serviceWorker' in navigator)) return false;
  const registration = await navigator.serviceWorker.ready;
  const worker = navigator.serviceWorker.controller ?? registration.active;
  if (!worker) return false;
  worker.postMessage(message);
  return true;
}

export const stopFetches = () => postToServiceWorker({ type: 'stop_fetches' });
export const resumeFetches = () => postToServiceWorker({ type: 'resume_fetches' });

export function onWorkerMessage(listener: (message: WorkerMessage) => void): () => void {
  if (!('serviceWorker' in navigator)) return () => {};
  const handler = (event: MessageEvent) => {
    const data = event.data as WorkerMessage | undefined;
    if (data?.type === 'prefetch_progress') listener(data);
  };
  navigator.serviceWorker.addEventListener('message', handler);
  return () => navigator.serviceWorker.removeEventListener('message', handler);
}

export async function unregisterServiceWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
}

/** Patient images must not outlive the session in this browser. */
export async function clearFrameCache(): Promise<void> {
  if (typeof caches === 'undefined') return;
  // Every user's, not only the one signing out: a shared workstation keeps no patient images.
  for (const name of await caches.keys()) if (isFramesCache(name)) await caches.delete(name);
}
