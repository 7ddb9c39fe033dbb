import { describe, expect, it } from "vitest";
import type { SimReply } from "../../src/sim/model.js";
import {
  type GenerateContentRequest,
  gemini,
  parseAvailableSkills,
  readGeminiConversation,
} from "../../src/sim/protocols/gemini.js";

// The Gemini wire's reader and writer in process: what skillgym sim reads from a Gemini CLI request and how it answers.

const skill = (name: string, description: string, location?: string) =>
  `<skill><name>${name}</name><description>${description}</description>${
    location === undefined ? "" : `<location>${location}</location>`
  }</skill>`;

const listing = (...skills: string[]) => `<available_skills>\n${skills.join("\n")}\n</available_skills>`;

const context = (home: string, workspace = "**Workspace Directories:**\n  - /w") =>
  `<session_context>\nThe project's temporary directory is: ${home}/.gemini/tmp/w\n- ${workspace}\n</session_context>`;

function request(prompt: string, options: { home?: string; system?: string } = {}): GenerateContentRequest {
  return {
    contents: [{ role: "user", parts: [{ text: context(options.home ?? "/runs/1") }, { text: prompt }] }],
    systemInstruction: { role: "user", parts: [{ text: options.system ?? "You are an agent." }] },
    tools: [{ functionDeclarations: [{ name: "activate_skill" }] }],
  };
}

const read = (body: object, url = "/v1beta/models/gemini-2.5-pro:streamGenerateContent") =>
  gemini.read(JSON.stringify(body), {}, `${url}?alt=sse`);

describe("the Gemini wire: Gemini CLI's skill list", () => {
  it("reads names and descriptions whole: spaces, line breaks, the five XML escapes, whitespace around them trimmed", () => {
    const text = listing(
      skill(
        "\n  release notes \n",
        " Turns &lt;commits&gt; into &quot;notes&quot; &amp; tags them, it&apos;s\n quick ",
        " /w/.gemini/skills/release notes/SKILL.md ",
      ),
      skill("no-location", "Listed without a location."),
    );
    expect(parseAvailableSkills(text)).toEqual([
      { name: "release notes", description: `Turns <commits> into "notes" & tags them, it's\n quick` },
      { name: "no-location", description: "Listed without a location." },
    ]);
  });

  it("leaves out Gemini CLI's built-ins, even with whitespace around the location, and only a SKILL.md at the end", () => {
    const text = listing(
      skill(
        "skill-creator",
        "Creates skills.",
        "\n  /x/gemini-cli/bundle/builtin/skill-creator/SKILL.md\n  ",
      ),
      skill("backup", "A copy of a built-in.", "/x/builtin/backup/SKILL.md.orig"),
    );
    expect(parseAvailableSkills(text)).toEqual([{ name: "backup", description: "A copy of a built-in." }]);
    expect(parseAvailableSkills("no list here")).toEqual([]);
  });
});

describe("the Gemini wire: reading a request", () => {
  it("finds the workspace folder with a space after the colon and trims it, and the skills of the system text", () => {
    const body = request("Write the notes", {
      system: `You are an agent.\n${listing(skill("notes", "Writes notes.", "/w/.gemini/skills/notes/SKILL.md"))}`,
    });
    body.contents![0]!.parts![0] = {
      text: context("/runs/1", "Workspace Directories: \n  - /work/project  "),
    };
    const conversation = readGeminiConversation(body, "gemini-2.5-pro");
    expect(conversation.cwd).toBe("/work/project");
    expect(conversation.prompt).toBe("Write the notes");
    expect(conversation.skills).toEqual([{ name: "notes", description: "Writes notes." }]);
    expect(conversation.model).toBe("gemini-2.5-pro");
  });

  it("has tools only when a declaration lists one", () => {
    const body = request("hello");
    expect(readGeminiConversation(body, undefined).hasTools).toBe(true);
    expect(
      readGeminiConversation({ ...body, tools: [{ functionDeclarations: [] }, {}] }, undefined).hasTools,
    ).toBe(false);
  });

  it("leaves a context block with a line break before it out of the prompt", () => {
    const body = request("Summarize data.csv");
    body.contents![0]!.parts![0] = { text: `\n\n${context("/runs/1")}` };
    expect(readGeminiConversation(body, undefined).prompt).toBe("Summarize data.csv");
  });

  it("gives the judge the system text, a string one too, then the prompt; a function response without one as {}", () => {
    expect(read({ ...request("Grade this"), systemInstruction: "Grade strictly." }).request.judgeText).toBe(
      "Grade strictly.\nGrade this",
    );
    const withoutSystem = request("Grade this");
    delete withoutSystem.systemInstruction;
    expect(read(withoutSystem).request.judgeText).toBe("Grade this");
    const answered = {
      ...request("Grade this"),
      systemInstruction: { parts: [{ functionResponse: { name: "read_file" } }, { text: "Rubric." }] },
    };
    expect(read(answered).request.judgeText).toBe("{}\nRubric.\nGrade this");
  });

  it("tells runs apart by the context block of the first user content, not an earlier model content", () => {
    const run = (home: string, earlierHome: string) => {
      const body = request("poem", { home });
      body.contents = [{ role: "model", parts: [{ text: context(earlierHome) }] }, ...body.contents!];
      return read(body).request.session;
    };
    expect(run("/runs/a", "/runs/x")).toBe(run("/runs/a", "/runs/y"));
    expect(run("/runs/a", "/runs/x")).not.toBe(run("/runs/b", "/runs/x"));
    const leadingBreak = (home: string) => {
      const body = request("poem", { home });
      body.contents![0]!.parts![0] = { text: `\n${context(home)}` };
      return read(body).request.session;
    };
    expect(leadingBreak("/runs/a")).not.toBe(leadingBreak("/runs/b"));
  });

  it("reads a skill list split over the system instruction's parts as one text, a line between parts", () => {
    const body = request("hi");
    body.systemInstruction = {
      parts: [
        { text: "<available_skills><skill><name>notes</name><description>Writes" },
        { text: "notes.</description></skill></available_skills>" },
      ],
    };
    expect(readGeminiConversation(body, undefined).skills).toEqual([
      { name: "notes", description: "Writes\nnotes." },
    ]);
  });

  it("reads the model from the path, decoded, and streams only for streamGenerateContent", () => {
    const streamed = read(request("hi"), "/v1beta/models/gemini%2D2.5%2Dflash:streamGenerateContent");
    expect(streamed.model).toBe("gemini-2.5-flash");
    expect(streamed.stream).toBe(true);
    const plain = read(request("hi"), "/v1beta/models/gemini-2.5-pro:generateContent");
    expect(plain.stream).toBe(false);
    expect(plain.model).toBe("gemini-2.5-pro");
    expect(plain.inputTokens).toBeGreaterThan(0);
  });
});

describe("the Gemini wire: answers", () => {
  const reply = (content: SimReply["content"], outputTokens = 7) =>
    ({ kind: "turn", action: "turn", latencyMs: 0, content, outputTokens }) as SimReply;

  it("answers as the model that was asked, with Gemini CLI's tools for the plan's calls and the token counts", () => {
    const wire = {
      ...read(request("hi"), "/v1beta/models/gemini-2.5-pro:generateContent"),
      inputTokens: 100,
    };
    const answer = gemini.write(
      reply([
        { type: "text", text: "On it." },
        { type: "tool_use", id: "t1", name: "Edit", input: { file_path: "a.md", old_string: "x" } },
        { type: "tool_use", id: "t2", name: "Read", input: { file_path: "b.md" } },
      ]),
      wire,
      1,
    );
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({ "content-type": "application/json" });
    expect(JSON.parse(answer.body)).toEqual({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "On it." },
              { functionCall: { name: "Edit", args: { file_path: "a.md", old_string: "x" } } },
              { functionCall: { name: "read_file", args: { file_path: "b.md" } } },
            ],
          },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 7, totalTokenCount: 107 },
      modelVersion: "gemini-2.5-pro",
    });
  });

  it("streams one server-sent event that is not to be cached", () => {
    const wire = { ...read(request("hi")), inputTokens: 10 };
    const answer = gemini.write(reply([{ type: "text", text: "Hi." }], 2), wire, 1);
    expect(answer.headers).toEqual({ "content-type": "text/event-stream", "cache-control": "no-cache" });
    expect(answer.body.startsWith("data: {")).toBe(true);
    expect(answer.body.endsWith("}\n\n")).toBe(true);
    expect(JSON.parse(answer.body.slice("data: ".length)).usageMetadata.totalTokenCount).toBe(12);
  });

  it.each([
    [429, "RESOURCE_EXHAUSTED"],
    [529, "UNAVAILABLE"],
    [503, "UNAVAILABLE"],
    [401, "UNAUTHENTICATED"],
    [500, "INTERNAL"],
  ])("names a simulated %i as Google's API does: %s", (status, name) => {
    const answer = gemini.error(status);
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: status, message: `Simulated ${status} (${name}) from skillgym sim`, status: name },
    });
  });
});
