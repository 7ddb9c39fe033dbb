import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { loadContext } from "../../src/triggers/context.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { priorConversation } from "./conditions-fixture.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "context.json": JSON.stringify(priorConversation),
    "bom.json": `\uFEFF${JSON.stringify(priorConversation)}`,
    "broken.json": "[{ role: user }]",
    "inner-mark.json": JSON.stringify([
      { role: "user", content: "Hi\uFEFFthere" },
      { role: "assistant", content: "Hello." },
    ]),
    "object.json": JSON.stringify({ role: "user", content: "x" }),
    "bad-role.json": JSON.stringify([{ role: "system", content: "x" }]),
    "empty-content.json": JSON.stringify([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "" },
    ]),
  });
});
afterAll(() => cleanup());

// The usage error loadContext throws for `name`, as the user reads it.
async function refusal(name: string, flag?: string): Promise<SkillgymError> {
  const error = await loadContext(join(dir, name), flag).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SkillgymError);
  expect((error as SkillgymError).code).toBe("USAGE");
  return error as SkillgymError;
}

describe("--context: the prior conversation file", () => {
  it("is read with its turns and the hash of what they say, a byte-order mark or not", async () => {
    const read = await loadContext(join(dir, "context.json"));
    expect(read).toEqual({
      file: join(dir, "context.json"),
      turns: priorConversation,
      hash: createHash("sha256").update(JSON.stringify(priorConversation)).digest("hex"),
    });
    expect(await loadContext(join(dir, "bom.json"))).toEqual({ ...read, file: join(dir, "bom.json") });
    // Only a mark that starts the file is dropped: one inside a turn is what the turn says.
    expect((await loadContext(join(dir, "inner-mark.json"))).turns[0]?.content).toBe("Hi\uFEFFthere");
  });

  it("is a usage error naming the flag, the file and the place when missing, not JSON or not turns", async () => {
    const missing = await refusal("missing.json");
    expect(missing.message).toBe(`--context: ${join(dir, "missing.json")} cannot be read`);
    expect(missing.hint).toContain("a list of {role: user|assistant, content} turns");

    const broken = await refusal("broken.json");
    expect(broken.message).toMatch(
      new RegExp(`^--context: ${join(dir, "broken.json")} is not JSON \\(.+\\)$`),
    );
    expect(broken.hint).toContain("a list of {role: user|assistant, content} turns");

    const object = await refusal("object.json");
    expect(object.message).toMatch(new RegExp(`^--context: ${join(dir, "object.json")}\\(top level\\): .+`));
    expect(object.file).toBe(join(dir, "object.json"));
    expect(object.hint).toContain("skillgym schema context");

    expect((await refusal("bad-role.json")).message).toMatch(
      new RegExp(`^--context: ${join(dir, "bad-role.json")}\\[0\\]\\.role: .+`),
    );
    expect((await refusal("empty-content.json")).message).toMatch(
      new RegExp(`^--context: ${join(dir, "empty-content.json")}\\[1\\]\\.content: .+`),
    );
  });

  it("names the flag or field it was given as", async () => {
    const error = await refusal("missing.json", "conditions.context");
    expect(error.message).toBe(`conditions.context: ${join(dir, "missing.json")} cannot be read`);
  });
});
