import type { ViewReader } from "./iteration-data.js";
import { createJsonCache } from "./json-cache.js";
import type { ViewTarget } from "./target.js";

export function createViewReader(target: ViewTarget): ViewReader {
  return { target, cache: createJsonCache(), benchmarkViews: new WeakMap() };
}
