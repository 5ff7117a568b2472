import { createContext, use, useSyncExternalStore } from 'react';
import { toggleTool, type ToolId } from './tools.ts';

/** The review's active tool, shared by the toolbar (which sets it) and the panels (which draw with it). */
export interface ActiveToolStore {
  get: () => ToolId | null;
  set: (tool: ToolId | null) => void;
  toggle: (tool: ToolId) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createActiveToolStore(initial: ToolId | null = null): ActiveToolStore {
  let active = initial;
  const listeners = new Set<() => void>();
  const set = (tool: ToolId | null) => {
    if (tool === active) return;
    active = tool;
    listeners.forEach((listener) => listener());
  };
  return {
    get: () => active,
    set,
    toggle: (tool) => set(toggleTool(active, tool)),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The open record's tool store; provided by the review session's provider, which owns it (review/session). */
export const ActiveToolContext = createContext<ActiveToolStore | null>(null);

export function useActiveToolStore(): ActiveToolStore {
  const store = use(ActiveToolContext);
  if (!store) throw new Error('ActiveToolStore is not provided');
  return store;
}

export function useActiveTool(): ToolId | null {
  const store = useActiveToolStore();
  return useSyncExternalStore(store.subscribe, store.get);
}
