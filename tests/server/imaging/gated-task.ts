/** A generation-queue task that runs until released, noting in `started` when it started. */
export function gate(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { work: () => (started.push(name), done.then(() => name)), release };
}

/** Lets the queue start what it will (its dispatch follows a task's settling). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
