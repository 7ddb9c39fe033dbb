#!/usr/bin/env node
// A TEST DOUBLE of the `claude` binary, never an agent a user picks: a small scripted program that stands in for
// Claude Code in the tests of features that do not depend on which agent runs. It takes Claude Code's command line
// (src/agents/claude-code/args.ts), finds the skills where Claude Code does (the project's and the home's
// `.claude/skills`), asks the model over the Anthropic Messages API as Claude Code does (so `skillgym sim` sees the
// same listing, tools, working directory and session), runs the tool calls the model answers with, and prints
// Claude Code's `stream-json` lines. It starts in a fraction of Claude Code's time. The claude-code conformance
// suite runs against it too (test/agents/conformance-agent-double.e2e.test.ts), so it cannot drift from the real one.
// Its runs are `runDouble`'s: as its own process here, or served by the resident double (test/agent-double/resident.ts).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";

const VERSION = "0.0.0-agent-double";
// Claude Code 2.1's own skills, listed in every run beside the user's.
const BUILTIN_SKILLS = {
  "deep-research": "Deep research harness: fan-out web searches, fetch sources, synthesize a cited report.",
  "update-config": "Use this skill to configure the Claude Code harness via settings.json.",
  verify: "Verify a code change does what it should by running the app.",
  debug: "Debug a failing program.",
  "code-review": "Review the current changes for bugs.",
  simplify: "Review changed code for reuse, quality and efficiency.",
  batch: "Run one change across many files in parallel.",
  "fewer-permission-prompts": "Add an allow-list of common commands to reduce permission prompts.",
  loop: "Run a prompt or slash command on a recurring interval.",
  "claude-api": "Build apps with the Claude API or Anthropic SDK.",
  run: "Run the project.",
  "run-skill-generator": "Generate a run skill for this project.",
};
const ALL_TOOLS = [
  "Task",
  "Bash",
  "Edit",
  "Glob",
  "Grep",
  "NotebookEdit",
  "Read",
  "Skill",
  "TodoWrite",
  "WebFetch",
  "WebSearch",
  "Write",
];
// Claude Code's requests weigh about 80 KB (its system prompt and tool schemas): the double's weigh as much, so a run
// the simulator prices costs what a real run costs.
const GUIDANCE = "Use the tools available to you to help the user with software engineering tasks. ".repeat(
  960,
);
// Dollars per token of a model Claude Code has no price for (it falls back to the largest model's).
const INPUT_PRICE = 5e-6;
const OUTPUT_PRICE = 25e-6;

function parseArgs(argv) {
  const options = { allowed: [], disallowed: [], partial: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const next = () => argv[++i] ?? "";
    if (arg === "-p" || arg === "--print") options.prompt = next();
    else if (arg === "--output-format") options.format = next();
    else if (arg === "--allowedTools")
      options.allowed = next()
        .split(/[\s,]+/)
        .filter(Boolean);
    else if (arg === "--disallowedTools")
      options.disallowed = next()
        .split(/[\s,]+/)
        .filter(Boolean);
    else if (arg === "--model") options.model = next();
    else if (arg === "--append-system-prompt") options.appendSystem = next();
    else if (arg === "--include-partial-messages") options.partial = true;
    else if (arg === "--resume" || arg === "-r") options.resume = next();
    else if (arg === "--version" || arg === "-v") options.version = true;
  }
  return options;
}

function frontmatter(text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { fields: {}, body: text };
  const fields = {};
  let key;
  for (const line of match[1].split(/\r?\n/)) {
    const field = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (field) {
      key = field[1];
      fields[key] = field[2].replace(/^(["'])(.*)\1$/, "$2");
    } else if (key && /^\s+\S/.test(line)) fields[key] = `${fields[key]} ${line.trim()}`.trim();
  }
  for (const [name, value] of Object.entries(fields))
    if (value.startsWith(">") || value.startsWith("|")) fields[name] = value.slice(1).trim();
  return { fields, body: match[2] };
}

// The skills of one folder: each subfolder with a SKILL.md.
function skillsIn(folder) {
  if (!existsSync(folder)) return [];
  const found = [];
  for (const entry of readdirSync(folder).sort()) {
    const file = join(folder, entry, "SKILL.md");
    if (!existsSync(file)) continue;
    const { fields } = frontmatter(readFileSync(file, "utf8"));
    if (fields["disable-model-invocation"] === "true") continue;
    // Claude Code names a skill by its folder, whatever its frontmatter says.
    found.push({
      name: entry,
      description: fields.description ?? "",
      dir: join(folder, entry),
    });
  }
  return found;
}

function discoverSkills(cwd, configDir) {
  const project = skillsIn(join(cwd, ".claude", "skills"));
  const user = skillsIn(join(configDir, "skills")).filter((s) => !project.some((p) => p.name === s.name));
  return [...project, ...user];
}

function emitTo(out) {
  return (line) => out(`${JSON.stringify(line)}\n`);
}

function toolsOffered(options) {
  return ALL_TOOLS.filter((t) => !options.disallowed.includes(t));
}

function toolSchema(name) {
  return { name, description: `The ${name} tool.`, input_schema: { type: "object", properties: {} } };
}

function systemPrompt(cwd, model, appended) {
  const blocks = [
    { type: "text", text: `x-anthropic-billing-header: cc_version=${VERSION}; cc_entrypoint=sdk-cli;` },
    { type: "text", text: "You are a Claude agent, built on Anthropic's Claude Agent SDK." },
    { type: "text", text: GUIDANCE },
    {
      type: "text",
      text:
        "You are an interactive agent that helps users with software engineering tasks.\n\n# Environment\n" +
        `You have been invoked in the following environment: \n - Primary working directory: ${cwd}\n` +
        ` - Is a git repository: false\n - Platform: ${process.platform}\n - You are powered by the model ${model}.`,
    },
  ];
  if (appended) blocks.push({ type: "text", text: appended });
  return blocks;
}

function skillListing(skills) {
  const lines = skills.map((s) => `- ${s.name}: ${s.description}`);
  return `The following skills are available for use with the Skill tool:\n\n${lines.join("\n")}\n`;
}

// Reads one streamed answer (server-sent events) into a message, passing each event on when asked to.
async function readStream(response, onEvent) {
  const message = { content: [], usage: { input_tokens: 0, output_tokens: 0 } };
  const partialJson = new Map();
  const decoder = new TextDecoder();
  let buffer = "";
  const handle = (data) => {
    onEvent(data);
    if (data.type === "message_start") {
      Object.assign(message, data.message, { content: [] });
      message.usage = { ...data.message.usage };
    } else if (data.type === "content_block_start") {
      message.content[data.index] = { ...data.content_block };
    } else if (data.type === "content_block_delta") {
      const block = message.content[data.index];
      if (data.delta.type === "text_delta") block.text = (block.text ?? "") + data.delta.text;
      if (data.delta.type === "input_json_delta")
        partialJson.set(data.index, (partialJson.get(data.index) ?? "") + data.delta.partial_json);
    } else if (data.type === "content_block_stop") {
      const json = partialJson.get(data.index);
      if (json !== undefined) message.content[data.index].input = json ? JSON.parse(json) : {};
    } else if (data.type === "message_delta") {
      message.stop_reason = data.delta.stop_reason;
      message.usage.output_tokens = data.usage?.output_tokens ?? message.usage.output_tokens;
    }
  };
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
      buffer = buffer.slice(end + 2);
      if (data) handle(JSON.parse(data));
      end = buffer.indexOf("\n\n");
    }
  }
  return message;
}

class ApiError extends Error {
  constructor(text, status) {
    super(text);
    this.status = status;
  }
}

// Claude Code's words for a failed request, as its result line prints them.
function apiErrorText(status, body) {
  let detail = body;
  try {
    detail = JSON.parse(body).error?.message ?? body;
  } catch {}
  if (status === 429) return `API Error: Request rejected (429) · ${detail}`;
  if (status === 401) return `API Error: 401 ${detail} · Please run /login`;
  if (status >= 500)
    return `API Error: ${status} ${detail}. This is a server-side issue, usually temporary — try again in a moment.`;
  return `API Error: ${status} ${detail}`;
}

// One POST with node:http, not fetch: loading fetch's implementation costs a short-lived process more than the
// request itself, and node:https (TLS) is loaded only for an https address, which no test of the simulator uses.
// Resolves to the status and the response as a stream of chunks.
async function post(url, headers, body, signal) {
  const target = new URL(url);
  const { request: send } =
    target.protocol === "https:" ? await import("node:https") : await import("node:http");
  return new Promise((resolvePost, rejectPost) => {
    const request = send(
      target,
      { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, signal },
      (response) => {
        const status = response.statusCode ?? 0;
        resolvePost({
          ok: status >= 200 && status < 300,
          status,
          body: response,
          text: async () => {
            let text = "";
            for await (const chunk of response) text += chunk;
            return text;
          },
        });
      },
    );
    request.on("error", (error) => rejectPost(Object.assign(new Error(error.message), { cause: error })));
    request.end(body);
  });
}

async function ask(state, body, onEvent) {
  const { env, signal } = state;
  const retries = Number(env.CLAUDE_CODE_MAX_RETRIES ?? "10");
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await post(
        `${state.baseUrl}/v1/messages?beta=true`,
        {
          "content-type": "application/json",
          "anthropic-version": "2023-06-01",
          "x-api-key": env.ANTHROPIC_API_KEY ?? "",
          "x-claude-code-session-id": state.sessionId,
          "user-agent": `claude-cli/${VERSION} (external, sdk-cli)`,
        },
        JSON.stringify(body),
        signal,
      );
    } catch (error) {
      if (signal?.aborted) throw new Ended();
      const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message;
      if (attempt < retries) {
        await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
        continue;
      }
      throw new ApiError(`API Error: Connection error. (${cause})`, undefined);
    }
    if (response.ok) return readStream(response, onEvent);
    const text = await response.text();
    if (attempt < retries && [429, 500, 502, 503, 529].includes(response.status)) {
      await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
      continue;
    }
    throw new ApiError(apiErrorText(response.status, text), response.status);
  }
}

function runBash(command, state, timeoutMs = 120_000) {
  const { cwd, env, signal } = state;
  return new Promise((resolveRun) => {
    // Served by the resident double (test/agent-double/resident.ts), the command runs in a group of its own that ends
    // with the run, as it would end with the double's own process.
    const child = spawn("bash", ["-c", command], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: signal !== undefined,
    });
    const end = () => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    };
    signal?.addEventListener("abort", end, { once: true });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", end);
      resolveRun({ code: code ?? 1, out: out.replace(/\n$/, "") });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", end);
      resolveRun({ code: 1, out: String(error.message) });
    });
  });
}

// Runs one tool call: its tool_result block, and for a skill the text Claude Code adds after it.
async function runTool(call, state) {
  const input = call.input ?? {};
  const at = (p) => (isAbsolute(p) ? p : resolve(state.cwd, p));
  const result = (content, isError = false) => ({
    block: { type: "tool_result", tool_use_id: call.id, content, ...(isError ? { is_error: true } : {}) },
  });
  if (!state.offered.includes(call.name)) return result(`Error: No such tool available: ${call.name}`, true);
  if (!state.allowed.includes(call.name)) {
    state.denials.push({ tool_name: call.name, tool_use_id: call.id, tool_input: input });
    return result(`Claude requested permissions to use ${call.name}, but you haven't granted it yet.`, true);
  }
  try {
    if (call.name === "Read") {
      const text = await readFile(at(input.file_path), "utf8");
      return result(
        text
          .split("\n")
          .map((line, i) => `${i + 1}\t${line}`)
          .join("\n"),
      );
    }
    if (call.name === "Write") {
      await mkdir(dirname(at(input.file_path)), { recursive: true });
      await writeFile(at(input.file_path), input.content ?? "");
      return result(`File created successfully at: ${at(input.file_path)}`);
    }
    if (call.name === "Edit") {
      const file = at(input.file_path);
      const text = await readFile(file, "utf8");
      if (!text.includes(input.old_string)) return result("String to replace not found in file.", true);
      const edited = input.replace_all
        ? text.split(input.old_string).join(input.new_string)
        : text.replace(input.old_string, () => input.new_string);
      await writeFile(file, edited);
      return result(`The file ${file} has been updated.`);
    }
    if (call.name === "Bash") {
      const { code, out } = await runBash(input.command ?? "", state, input.timeout);
      return code === 0 ? result(out) : result(`Exit code ${code}\n${out}`, true);
    }
    if (call.name === "Skill") {
      const name = String(input.skill ?? input.command ?? "").replace(/^\//, "");
      const skill = state.skills.find((s) => s.name === name);
      if (!skill) return result(`Unknown skill: ${name}`, true);
      const { body } = frontmatter(await readFile(join(skill.dir, "SKILL.md"), "utf8"));
      return {
        ...result(`Launching skill: ${name}`),
        text: `Base directory for this skill: ${skill.dir}\n\n${body}`,
      };
    }
  } catch (error) {
    return result(`Error: ${error.message}`, true);
  }
  return result(`Error: the test double does not run ${call.name}`, true);
}

function resultLine(state, fields) {
  const { input, output } = state.usage;
  state.emit({
    type: "result",
    subtype: "success",
    is_error: false,
    api_error_status: null,
    duration_ms: Date.now() - state.started,
    num_turns: state.turns,
    result: "",
    session_id: state.sessionId,
    total_cost_usd: input * INPUT_PRICE + output * OUTPUT_PRICE,
    usage: {
      input_tokens: input,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: output,
    },
    permission_denials: state.denials,
    ...fields,
  });
}

// A run the resident double stops because its caller ended the process it serves (test/agent-double/resident.ts).
class Ended extends Error {}

/**
 * One run of the double: its command line, environment and working directory, where its output goes, and (for the
 * resident double) a signal that the process it serves has ended. Resolves to the exit code.
 */
export async function runDouble({ argv, env, cwd, out, err, signal }) {
  try {
    return await run({ argv, env, cwd, out, err, signal });
  } catch (error) {
    if (error instanceof Ended || signal?.aborted) return 1;
    throw error;
  }
}

async function run({ argv, env, cwd, out, err, signal }) {
  const emit = emitTo(out);
  const options = parseArgs(argv);
  if (options.version) {
    out(`${VERSION} (Claude Code test double)\n`);
    return 0;
  }
  if (options.prompt === undefined || options.format !== "stream-json") {
    err("claude test double: only `-p <prompt> --output-format stream-json` is supported\n");
    return 1;
  }
  const home = env.HOME ?? cwd;
  const configDir = env.CLAUDE_CONFIG_DIR ?? join(home, ".claude");
  const model = options.model ?? "claude-sonnet-4-5";
  const skills = discoverSkills(cwd, configDir);
  const listed = [
    ...skills,
    ...Object.entries(BUILTIN_SKILLS).map(([name, description]) => ({ name, description })),
  ];
  // `--resume <id>`: the session's turns, as Claude Code reads them from `<config>/projects/<cwd slug>/<id>.jsonl`.
  let history = [];
  if (options.resume !== undefined) {
    const file = join(configDir, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"), `${options.resume}.jsonl`);
    if (!existsSync(file)) {
      err(`No conversation found with session ID: ${options.resume}\n`);
      return 1;
    }
    history = readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line))
      .filter((entry) => (entry.type === "user" || entry.type === "assistant") && entry.message)
      .map((entry) => ({ role: entry.message.role, content: entry.message.content }));
  }
  const state = {
    cwd,
    skills,
    env,
    signal,
    emit,
    baseUrl: (env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com").replace(/\/$/, ""),
    sessionId: options.resume ?? randomUUID(),
    offered: toolsOffered(options),
    allowed: options.allowed.filter((t) => !options.disallowed.includes(t)),
    denials: [],
    usage: { input: 0, output: 0 },
    turns: 0,
    started: Date.now(),
  };
  emit({
    type: "system",
    subtype: "init",
    cwd,
    session_id: state.sessionId,
    tools: state.offered,
    mcp_servers: [],
    model,
    permissionMode: "default",
    slash_commands: listed.map((s) => s.name),
    apiKeySource: "ANTHROPIC_API_KEY",
    claude_code_version: VERSION,
    skills: listed.map((s) => s.name),
  });
  const messages = [
    ...history,
    {
      role: "user",
      content: [
        { type: "text", text: "<system-reminder>\nThe test double's context.\n</system-reminder>\n" },
        { type: "text", text: options.prompt },
      ],
    },
    { role: "system", content: skillListing(listed) },
  ];
  const request = () => ({
    model,
    max_tokens: 32000,
    stream: true,
    system: systemPrompt(cwd, model, options.appendSystem),
    tools: state.offered.map(toolSchema),
    messages,
  });
  const envelope = { parent_tool_use_id: null, session_id: state.sessionId };
  let lastText = "";
  for (let turn = 0; turn < 100; turn++) {
    if (signal?.aborted) throw new Ended();
    let message;
    state.turns++;
    try {
      message = await ask(state, request(), (event) => {
        if (options.partial) emit({ type: "stream_event", event, ...envelope, uuid: randomUUID() });
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      emit({
        type: "assistant",
        message: {
          id: randomUUID(),
          model: "<synthetic>",
          role: "assistant",
          type: "message",
          content: [{ type: "text", text: error.message }],
          usage: { input_tokens: 0, output_tokens: 0 },
        },
        ...envelope,
      });
      resultLine(state, { is_error: true, api_error_status: error.status ?? null, result: error.message });
      return 1;
    }
    state.usage.input += message.usage.input_tokens ?? 0;
    state.usage.output += message.usage.output_tokens ?? 0;
    // Claude Code prints one assistant line per content block.
    for (const block of message.content)
      emit({
        type: "assistant",
        message: {
          id: message.id,
          type: "message",
          role: "assistant",
          model: message.model,
          content: [block],
          stop_reason: null,
          usage: message.usage,
        },
        ...envelope,
      });
    messages.push({ role: "assistant", content: message.content });
    const texts = message.content.filter((b) => b.type === "text").map((b) => b.text);
    if (texts.length > 0) lastText = texts.join("\n");
    const calls = message.content.filter((b) => b.type === "tool_use");
    if (calls.length === 0) {
      resultLine(state, { result: lastText, stop_reason: message.stop_reason ?? "end_turn" });
      return 0;
    }
    const content = [];
    for (const call of calls) {
      const ran = await runTool(call, state);
      emit({ type: "user", message: { role: "user", content: [ran.block] }, ...envelope });
      content.push(ran.block);
      if (ran.text) {
        // Claude Code counts the skill's text it adds as a turn of its own.
        state.turns++;
        emit({
          type: "user",
          message: { role: "user", content: [{ type: "text", text: ran.text }] },
          ...envelope,
        });
        content.push({ type: "text", text: ran.text });
      }
    }
    messages.push({ role: "user", content });
  }
  resultLine(state, {
    subtype: "error_max_turns",
    is_error: true,
    result: "Reached the maximum number of turns",
  });
  return 1;
}

if (process.argv[1] && import.meta.filename === realpathSync(process.argv[1]))
  runDouble({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exitCode = 1;
    },
  );
