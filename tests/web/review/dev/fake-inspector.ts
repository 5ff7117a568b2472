import { vi } from 'vitest';
import type { InspectModule } from '../../../../src/web/review/dev/inspector.ts';

type BrowserInspector = ReturnType<InspectModule['createBrowserInspector']>;

/** A stand-in for '@statelyai/inspect': records what is sent and "opens" a window on start. */
export function fakeInspectModule() {
  const inspectors: {
    actor: ReturnType<typeof vi.fn>;
    next: ReturnType<typeof vi.fn>;
    start: ReturnType<typeof vi.fn>;
    stop: ReturnType<typeof vi.fn>;
    adapter: { targetWindow: { closed: boolean; focus: () => void } | null };
  }[] = [];
  const createBrowserInspector = vi.fn(() => {
    const adapter: (typeof inspectors)[number]['adapter'] = { targetWindow: null };
    const fake = {
      actor: vi.fn(),
      next: vi.fn(),
      start: vi.fn(() => {
        adapter.targetWindow = { closed: false, focus: vi.fn() };
      }),
      stop: vi.fn(),
      adapter,
    };
    inspectors.push(fake);
    return { ...fake, inspect: { next: fake.next }, snapshot: vi.fn(), event: vi.fn() } as unknown as BrowserInspector;
  });
  const module: InspectModule = { createBrowserInspector: createBrowserInspector as unknown as InspectModule['createBrowserInspector'] };
  return { module, createBrowserInspector, inspectors };
}
