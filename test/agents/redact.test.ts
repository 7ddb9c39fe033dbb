import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialSecrets } from "../../src/agents/claude-code/credentials.js";
import { createRedactor, environmentSecrets, redactJson } from "../../src/redact.js";

const KEY = "sk-test-SECRET-0123456789abcdef";

describe("createRedactor", () => {
  const redactor = createRedactor([{ name: "ANTHROPIC_API_KEY", value: KEY }]);

  it("replaces every occurrence with a marker naming the credential", () => {
    expect(redactor.text(`key=${KEY}\nagain ${KEY}.`)).toBe(
      "key=[redacted:ANTHROPIC_API_KEY]\nagain [redacted:ANTHROPIC_API_KEY].",
    );
    expect(redactor.names).toEqual(["ANTHROPIC_API_KEY"]);
  });

  it("leaves text without the value untouched", () => {
    expect(redactor.text("sk-test-SECRET-0123 is only a prefix")).toBe(
      "sk-test-SECRET-0123 is only a prefix",
    );
  });

  it("ignores values too short to be a secret, so ordinary text is not mangled", () => {
    const short = createRedactor([
      { name: "CLAUDE_CODE_USE_BEDROCK", value: "1" },
      { name: "GOOGLE_API_KEY", value: "abc" },
    ]);
    expect(short.text("1 abc 1")).toBe("1 abc 1");
    expect(short.names).toEqual([]);
  });

  it("masks the longest value first when one value contains another", () => {
    const nested = createRedactor([
      { name: "SHORT", value: "abcdefgh" },
      { name: "LONG", value: "abcdefgh-ijklmnop" },
    ]);
    expect(nested.text("abcdefgh-ijklmnop and abcdefgh")).toBe("[redacted:LONG] and [redacted:SHORT]");
  });

  it("catches a value with quotes or backslashes inside a JSON line, once and twice escaped", () => {
    const odd = 'pa"ss\\word-123';
    const quoting = createRedactor([{ name: "OPENAI_API_KEY", value: odd }]);
    const once = JSON.stringify({ text: `token ${odd}` });
    const twice = JSON.stringify({ line: once });
    expect(quoting.text(once)).toBe(JSON.stringify({ text: "token [redacted:OPENAI_API_KEY]" }));
    expect(JSON.parse(quoting.text(twice))).toEqual({
      line: JSON.stringify({ text: "token [redacted:OPENAI_API_KEY]" }),
    });
    expect(quoting.text(odd)).toBe("[redacted:OPENAI_API_KEY]");
  });

  it("treats regular-expression characters in a value literally", () => {
    const regexy = createRedactor([{ name: "GEMINI_API_KEY", value: "a.b*c+d?(e)" }]);
    expect(regexy.text("axbxcxd a.b*c+d?(e)")).toBe("axbxcxd [redacted:GEMINI_API_KEY]");
  });

  it("replaces the value's bytes in binary data and keeps the other bytes", () => {
    const bytes = Buffer.concat([Buffer.from([0, 255, 1]), Buffer.from(KEY), Buffer.from([0xc3, 0x28])]);
    const out = redactor.bytes(bytes);
    expect(out.includes(Buffer.from(KEY))).toBe(false);
    expect(out).toEqual(
      Buffer.concat([
        Buffer.from([0, 255, 1]),
        Buffer.from("[redacted:ANTHROPIC_API_KEY]"),
        Buffer.from([0xc3, 0x28]),
      ]),
    );
  });

  it("masks a non-ASCII value in UTF-8 text through the byte path", () => {
    const unicode = createRedactor([{ name: "ANTHROPIC_AUTH_TOKEN", value: "clé-secrète-ü" }]);
    const out = unicode.bytes(Buffer.from("avant clé-secrète-ü après", "utf8")).toString("utf8");
    expect(out).toBe("avant [redacted:ANTHROPIC_AUTH_TOKEN] après");
  });

  it("keeps JSON valid and masks every string in a value", () => {
    const graded = { expectations: [{ text: "key written", evidence: `key.txt holds ${KEY}` }], n: 1 };
    expect(redactJson(redactor, graded)).toEqual({
      expectations: [{ text: "key written", evidence: "key.txt holds [redacted:ANTHROPIC_API_KEY]" }],
      n: 1,
    });
    expect(redactJson(createRedactor([]), graded)).toBe(graded);
  });
});

describe("the secrets of a child", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "skillgym-redact-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("are the credential variables set in its environment, other agents' keys included", () => {
    const secrets = environmentSecrets({
      PATH: "/usr/bin",
      ANTHROPIC_API_KEY: "sk-ant-aaaaaaaa",
      OPENAI_API_KEY: "sk-openai-bbbbbbbb",
      GEMINI_API_KEY: "",
      HOME: "/home/user",
    });
    expect(secrets).toEqual([
      { name: "ANTHROPIC_API_KEY", value: "sk-ant-aaaaaaaa" },
      { name: "OPENAI_API_KEY", value: "sk-openai-bbbbbbbb" },
    ]);
  });

  it("include the access and refresh tokens of a copied login file", async () => {
    const file = join(dir, ".credentials.json");
    await writeFile(
      file,
      JSON.stringify({
        claudeAiOauth: {
          accessToken: "sk-ant-oat-access-1234",
          refreshToken: "sk-ant-ort-refresh-5678",
          expiresAt: 1,
        },
      }),
    );
    const secrets = await credentialSecrets({ kind: "oauth-file", file }, { PATH: "/usr/bin" });
    expect(secrets).toEqual([
      { name: "CLAUDE_OAUTH_ACCESS_TOKEN", value: "sk-ant-oat-access-1234" },
      { name: "CLAUDE_OAUTH_REFRESH_TOKEN", value: "sk-ant-ort-refresh-5678" },
    ]);
  });

  it("skip a login file that is not JSON", async () => {
    const file = join(dir, "broken.json");
    await writeFile(file, "not json");
    const secrets = await credentialSecrets(
      { kind: "oauth-file", file },
      { CLAUDE_CODE_OAUTH_TOKEN: "oauth-token-xyz" },
    );
    expect(secrets).toEqual([{ name: "CLAUDE_CODE_OAUTH_TOKEN", value: "oauth-token-xyz" }]);
  });
});
