import type { createBrowserInspector } from '@statelyai/inspect';
import type { AnyActorRef, Subscription } from 'xstate';

/** The part of '@statelyai/inspect' this module uses; a type only, so the package stays out of the eager graph. */
export interface InspectModule {
  createBrowserInspector: typeof createBrowserInspector;
}

export type LoadInspectModule = () => Promise<InspectModule>;

/**
 * The only place the inspector package is loaded: by dynamic import, which the build turns into
 * a separate chunk fetched only in developer mode (architecture: inspector only with dev=true).
 */
export const loadInspectModule: LoadInspectModule = () => import('@statelyai/inspect');

export interface DevInspector {
  /**
   * Opens the Stately inspector window (stately.ai/inspect). Call it from a click: browsers block
   * pop-ups opened without one. Returns false when no window could be opened.
   */
  open: () => boolean;
  dispose: () => void;
}

/**
 * Connects an already started actor (the playback provider creates it long before developer mode
 * can load anything) to the browser inspector. Its events are kept (up to the package's 200)
 * until the inspector window opens and says it is connected; without a network that never
 * happens and the events are simply dropped, so the review is not affected.
 */
export async function connectInspector(actor: AnyActorRef, load: LoadInspectModule = loadInspectModule): Promise<DevInspector> {
  const { createBrowserInspector } = await load();
  let current: { inspector: ReturnType<typeof createBrowserInspector>; subscription: Subscription; started: boolean } | null = null;

  const attach = () => {
    const inspector = createBrowserInspector({ autoStart: false });
    // The actor's own creation event was emitted before we listened: announce it with its current state.
    inspector.actor(actor, actor.getSnapshot());
    const subscription = actor.system.inspect(inspector.inspect);
    current = { inspector, subscription, started: false };
    return current;
  };
  const detach = () => {
    if (!current) return;
    current.subscription.unsubscribe();
    if (current.started) current.inspector.stop();
    current = null;
  };
  attach();

  return {
    open: () => {
      let connection = current ?? attach();
      const target = connection.inspector.adapter.targetWindow;
      if (connection.started && target && !target.closed) {
        target.focus();
        return true;
      }
      // Starting an adapter twice would add a second listener and send every event twice: after
      // the window was closed (or blocked), a fresh inspector is connected instead.
      if (connection.started) {
        detach();
        connection = attach();
      }
      connection.started = true;
      try {
        connection.inspector.start();
      } catch (error) {
        console.warn('The XState inspector could not be opened', error);
        return false;
      }
      return connection.inspector.adapter.targetWindow !== null;
    },
    dispose: detach,
  };
}
