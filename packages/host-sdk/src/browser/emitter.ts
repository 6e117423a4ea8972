/** A listener map: event type → the event object its listeners receive. */
export type EventMap = { [type: string]: object };

export interface Emitter<Events extends EventMap> {
  /** Adds a listener; returns the function that removes it. */
  on<T extends keyof Events>(type: T, listener: (event: Events[T]) => void): () => void;
  emit<T extends keyof Events>(type: T, event: Events[T]): void;
  clear(): void;
}

/**
 * A small typed event emitter; `onAny` hears every event after the listeners of its type. A listener that throws
 * is reported and does not stop the others, so one faulty handler in the host cannot keep the token from reaching
 * the page or the other frames.
 *
 * @example
 * const events = createEmitter<{ ping: { at: number } }>();
 * const off = events.on("ping", (event) => console.log(event.at));
 * events.emit("ping", { at: 1 });
 * off();
 */
export function createEmitter<Events extends EventMap>(onAny?: (event: Events[keyof Events]) => void): Emitter<Events> {
  const listeners = new Map<keyof Events, Set<(event: never) => void>>();
  return {
    on(type, listener) {
      let set = listeners.get(type);
      if (set === undefined) {
        set = new Set();
        listeners.set(type, set);
      }
      set.add(listener);
      return () => {
        set.delete(listener);
      };
    },
    emit(type, event) {
      const all = [...(listeners.get(type) ?? [])] as Array<(event: Events[typeof type]) => void>;
      if (onAny) all.push(onAny);
      for (const listener of all) {
        try {
          listener(event);
        } catch (error) {
          reportListenerError(error);
        }
      }
    },
    clear() {
      listeners.clear();
    },
  };
}

function reportListenerError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  if (report) report(error);
  else console.error(error);
}
