// A tiny event emitter (written for docchunk's tests).
import { strict as assert } from "node:assert";

const DEFAULT_LIMIT = 10;

export class Emitter {
  constructor(limit = DEFAULT_LIMIT) {
    this.limit = limit;
    this.handlers = new Map();
  }

  on(name, handler) {
    const list = this.handlers.get(name) ?? [];
    assert(list.length < this.limit, `too many handlers for ${name}`);
    list.push(handler);
    this.handlers.set(name, list);
    return () => this.off(name, handler);
  }

  off(name, handler) {
    const list = this.handlers.get(name) ?? [];
    this.handlers.set(name, list.filter((h) => h !== handler));
  }

  emit(name, ...args) {
    for (const handler of this.handlers.get(name) ?? []) {
      handler(...args);
    }
  }
}

export function once(emitter, name) {
  return new Promise((resolve) => {
    const off = emitter.on(name, (...args) => {
      off();
      resolve(args);
    });
  });
}
