import { createHash } from "node:crypto";

/** `--shard i/n`: the i-th of n parts of a plan, 1-based. */
export interface Shard {
  index: number;
  count: number;
}

/** Reads `i/n`; throws an Error whose message says what a valid value looks like. */
export function parseShard(value: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match) throw new Error(`"${value}" is not of the form i/n (e.g. 1/4)`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1) throw new Error(`"${value}": n must be 1 or more`);
  if (index < 1 || index > count) throw new Error(`"${value}": i must be from 1 to ${count}`);
  return { index, count };
}

function byHash(a: { hash: string }, b: { hash: string }): number {
  if (a.hash < b.hash) return -1;
  // V8's sort only ever tests a comparison for < 0, so what it says past -1 never changes the order.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, only < 0 is tested
  return a.hash > b.hash ? 1 : 0;
}

function unitHash(identity: string): string {
  return createHash("sha256").update(identity).digest("hex");
}

/**
 * The units of one shard. Units are ordered by a stable hash of their identity and dealt round-robin, so every unit
 * belongs to exactly one shard, shards differ by at most one unit, and n machines with the same plan agree.
 */
export function partition<T>(units: readonly T[], identity: (unit: T) => string, shard: Shard): T[] {
  const keyed = units.map((unit, position) => {
    const id = identity(unit);
    return { unit, id, hash: unitHash(id), position };
  });
  // Equal hashes are equal identities (SHA-256): such units, one unit planned twice, keep the plan's order, since the
  // sort is stable.
  keyed.sort(byHash);
  const mine = new Set(
    keyed.filter((_, dealt) => dealt % shard.count === shard.index - 1).map((k) => k.position),
  );
  // The plan's own order is kept inside a shard (configurations of one eval and run side by side).
  return units.filter((_, position) => mine.has(position));
}

/** How many of `total` units `partition` deals to this shard: every n-th from the i-th, so it needs no identities. */
export function shareSize(total: number, shard: Shard): number {
  // With fewer units than i (i ≤ n), the floor of a quotient between -1 and 0 is -1: none.
  return Math.floor((total - shard.index) / shard.count) + 1;
}
