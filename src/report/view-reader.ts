import { createJsonCache } from "../runlog/record-cache.js";
import type { ViewReader } from "./iteration-data.js";
import type { ViewTarget } from "./target.js";

export function createViewReader(target: ViewTarget): ViewReader {
  return { target, cache: createJsonCache(), benchmarkViews: new WeakMap() };
}
