import { describe, expect, it } from "vitest";
import { partition, shareSize } from "../../src/shard/index.js";

describe("shareSize", () => {
  it("is the number of units partition deals each shard, for every plan size and n", () => {
    for (let total = 0; total <= 23; total++) {
      const units = Array.from({ length: total }, (_, i) => `unit-${i}`);
      for (let count = 1; count <= 5; count++) {
        for (let index = 1; index <= count; index++) {
          const shard = { index, count };
          expect(shareSize(total, shard), `${total} units, shard ${index}/${count}`).toBe(
            partition(units, (u) => u, shard).length,
          );
        }
      }
    }
  });
});
