import { describe, expect, it } from "vitest";
import { CREDENTIAL_VARIABLES, createRedactor, environmentSecrets } from "../../src/redact.js";

describe("the credential variables", () => {
  it("are every variable an agent may authenticate with, found in this order", () => {
    const env = Object.fromEntries(
      [
        "GOOGLE_API_KEY",
        "GEMINI_API_KEY",
        "CODEX_API_KEY",
        "OPENAI_API_KEY",
        "CLAUDE_CODE_OAUTH_TOKEN",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_API_KEY",
      ].map((name) => [name, `value-of-${name}`]),
    );
    expect(environmentSecrets(env).map((s) => s.name)).toEqual([
      "ANTHROPIC_API_KEY",
      "ANTHROPIC_AUTH_TOKEN",
      "CLAUDE_CODE_OAUTH_TOKEN",
      "OPENAI_API_KEY",
      "CODEX_API_KEY",
      "GEMINI_API_KEY",
      "GOOGLE_API_KEY",
    ]);
    expect(CREDENTIAL_VARIABLES).toHaveLength(7);
  });
});

describe("a redactor given one value twice", () => {
  it("marks it with the first name, and names each credential once", () => {
    const redactor = createRedactor([
      { name: "ANTHROPIC_API_KEY", value: "same-secret-value" },
      { name: "ANTHROPIC_AUTH_TOKEN", value: "same-secret-value" },
      { name: "LOGIN", value: "access-token-1234" },
      { name: "LOGIN", value: "refresh-token-5678" },
    ]);
    expect(redactor.text("same-secret-value access-token-1234 refresh-token-5678")).toBe(
      "[redacted:ANTHROPIC_API_KEY] [redacted:LOGIN] [redacted:LOGIN]",
    );
    expect(redactor.names).toEqual(["ANTHROPIC_API_KEY", "LOGIN"]);
  });

  it("leaves text and bytes as they are when nothing is to be masked", () => {
    const none = createRedactor([{ name: "SHORT", value: "1" }]);
    expect(none.text("a 1 b")).toBe("a 1 b");
    expect(none.bytes(Buffer.from([0, 1, 255]))).toEqual(Buffer.from([0, 1, 255]));
  });
});
