import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

/* jsdom lacks a few browser APIs that Chakra UI (Ark/Zag) and the app call. */

if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  });
}

class NoopObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
  takeRecords(): [] {
    return [];
  }
}
globalThis.ResizeObserver ??= NoopObserver as unknown as typeof ResizeObserver;
globalThis.IntersectionObserver ??= NoopObserver as unknown as typeof IntersectionObserver;

window.scrollTo = () => undefined;
Element.prototype.scrollTo ??= () => undefined;
Element.prototype.scrollIntoView ??= () => undefined;

// jsdom lays nothing out, so every element measures 0×0, which focus management (Zag) reads as hidden
// and then refuses to focus it. Connected, non-hidden elements get a nominal size.
Object.defineProperty(HTMLElement.prototype, 'offsetWidth', {
  configurable: true,
  get(this: HTMLElement) {
    return this.isConnected && !this.hidden ? 1 : 0;
  },
});

URL.createObjectURL ??= () => 'blob:test';
URL.revokeObjectURL ??= () => undefined;

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  document.documentElement.className = '';
  vi.restoreAllMocks();
});
