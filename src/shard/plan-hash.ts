import { storeKey } from "../store/key.js";

/**
 * The hash of a plan's defining parts, independent of key order (an absent part counts as not given); shards of one
 * plan share it. The store's key of the same parts, cut to 16 hex digits.
 */
export function planHash(parts: Record<string, unknown>): string {
  return storeKey(parts).slice(0, 16);
}
