import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childSecrets } from "../../src/agents/login-file-secrets.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-login-file-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fields = {
  OPENAI_API_KEY: "CODEX_AUTH_API_KEY",
  access_token: "CODEX_AUTH_ACCESS_TOKEN",
  refresh_token: "CODEX_AUTH_REFRESH_TOKEN",
};

describe("childSecrets", () => {
  it("the environment's credentials, then the login file's tokens wherever they sit", async () => {
    const file = join(dir, "auth.json");
    // A ChatGPT login: no API key (null), the tokens one level down.
    await writeFile(
      file,
      JSON.stringify({
        OPENAI_API_KEY: null,
        tokens: { access_token: "fake-access", refresh_token: "fake-refresh", account_id: "acct" },
        last_refresh: "2025-01-01",
      }),
    );
    expect(await childSecrets({ OPENAI_API_KEY: "fake-env-key", HOME: "/h" }, file, fields)).toEqual([
      { name: "OPENAI_API_KEY", value: "fake-env-key" },
      { name: "CODEX_AUTH_ACCESS_TOKEN", value: "fake-access" },
      { name: "CODEX_AUTH_REFRESH_TOKEN", value: "fake-refresh" },
    ]);
  });

  it("looks inside a field named as a token whose value is no string", async () => {
    const file = join(dir, "nested.json");
    await writeFile(
      file,
      JSON.stringify({ access_token: { refresh_token: "fake-inner" }, OPENAI_API_KEY: 7 }),
    );
    expect(await childSecrets({}, file, fields)).toEqual([
      { name: "CODEX_AUTH_REFRESH_TOKEN", value: "fake-inner" },
    ]);
  });

  it("the environment's alone without a login file, or with one that is no JSON", async () => {
    const broken = join(dir, "broken.json");
    await writeFile(broken, "{not json");
    const env = { OPENAI_API_KEY: "fake-env-key" };
    const own = [{ name: "OPENAI_API_KEY", value: "fake-env-key" }];
    expect(await childSecrets(env, undefined, fields)).toEqual(own);
    expect(await childSecrets(env, broken, fields)).toEqual(own);
    expect(await childSecrets(env, join(dir, "missing.json"), fields)).toEqual(own);
  });
});
