import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSkill } from "../../../src/skill/index.js";
import { storeKey } from "../../../src/store/index.js";
import type { Companion } from "../../../src/triggers/companions.js";
import { captureKey } from "../../../src/triggers/replay/capture-key.js";
import type { TriggerContext } from "../../../src/triggers/run-trigger.js";
import { skillMd, tempDir } from "../../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
const skill = async (name: string, body = "Do it."): Promise<Companion> => {
  const sourceDir = join(dir, name);
  await mkdir(sourceDir, { recursive: true });
  await writeFile(join(sourceDir, "SKILL.md"), skillMd(name, `The ${name} skill.`, body));
  return { sourceDir, installName: name };
};
let a: Companion;
let b: Companion;
let c: Companion;
let limerick: Companion;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  [a, b, c, limerick] = await Promise.all([skill("a"), skill("b"), skill("c"), skill("limerick")]);
});
afterAll(() => cleanup?.());

const context = (extra: Partial<TriggerContext> = {}): TriggerContext =>
  ({
    agent: { name: "claude-code", version: "2.0.1", simulated: false },
    model: "claude-sonnet-4-5",
    skillName: "haiku",
    companions: [limerick],
    ...extra,
  }) as unknown as TriggerContext;

const hashed = async (skills: Companion[]) =>
  Promise.all(skills.map(async (s) => ({ name: s.installName, content: await hashSkill(s.sourceDir) })));

describe("the store key of a captured first request", () => {
  it("is the agent's parts, the skill's name and description, its companions, the installed skills, project and context", async () => {
    const key = await captureKey(
      context({
        installed: [c, a, b],
        project: { hash: "p1" },
        context: { hash: "c1" },
      } as Partial<TriggerContext>),
      "Writes haiku.",
    );
    expect(key).toBe(
      storeKey({
        kind: "replay-capture",
        agent: "claude-code",
        version: "2.0.1",
        mode: null,
        model: "claude-sonnet-4-5",
        simulated: false,
        sim_script: null,
        name: "haiku",
        description: "Writes haiku.",
        companions: await hashed([limerick]),
        installed: await hashed([a, b, c]),
        project: "p1",
        context: "c1",
      }),
    );
  });

  it("without installed skills, project or context: none of them, as nulls and an empty list", async () => {
    expect(await captureKey(context(), "Writes haiku.")).toBe(
      storeKey({
        kind: "replay-capture",
        agent: "claude-code",
        version: "2.0.1",
        mode: null,
        model: "claude-sonnet-4-5",
        simulated: false,
        sim_script: null,
        name: "haiku",
        description: "Writes haiku.",
        companions: await hashed([limerick]),
        installed: [],
        project: null,
        context: null,
      }),
    );
  });

  it("is the same whatever order the installed skills come in", async () => {
    const orders = [
      [a, b, c],
      [a, c, b],
      [b, a, c],
      [b, c, a],
      [c, a, b],
      [c, b, a],
    ];
    const keys = new Set(
      await Promise.all(orders.map((installed) => captureKey(context({ installed }), "d"))),
    );
    expect(keys.size).toBe(1);
    expect(await captureKey(context({ installed: [a, b] }), "d")).not.toBe([...keys][0]);
  });

  it("changes with a companion's content", async () => {
    const before = await captureKey(context(), "d");
    await writeFile(
      join(limerick.sourceDir, "SKILL.md"),
      skillMd("limerick", "The limerick skill.", "Other."),
    );
    expect(await captureKey(context(), "d")).not.toBe(before);
  });
});
