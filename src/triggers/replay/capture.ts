import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ReplayCapture } from "../../contracts/replay-capture.js";
import { storeSource } from "../../run/reuse.js";
import { writeJson } from "../../runlog/atomic-write.js";
import type { ResultStore } from "../../store/index.js";
import { syntheticName } from "../plan.js";
import { executeTriggerRun, type TriggerContext } from "../run-trigger.js";
import type { ReplayAdapter } from "./adapter.js";
import { captureKey } from "./capture-key.js";
import { replayMarker } from "./marker.js";
import { startRecordingProxy } from "./recording-proxy.js";

const CAPTURE_FILE = "capture.json";

export interface CaptureInput {
  ctx: TriggerContext;
  adapter: ReplayAdapter;
  description: string;
  store?: ResultStore;
  iterationDir: string;
  /** The store key to keep it under; default {@link captureKey} of the context and description. */
  key?: string;
}

export type CaptureResult =
  | { capture: ReplayCapture; captured: boolean }
  | { capture?: undefined; reason: string };

function kept(
  request: { headers: Record<string, string | string[] | undefined> },
  dropped: readonly string[],
) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    if (value !== undefined && !dropped.includes(name.toLowerCase()))
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  return headers;
}

const withoutRetryReport = ({ onRetry: _reported, ...rest }: TriggerContext): TriggerContext => rest;

async function stored(store: ResultStore | undefined, key: string): Promise<ReplayCapture | undefined> {
  const found = await store?.get("replay-capture", key);
  if (!found) return undefined;
  const parsed = ReplayCapture.safeParse(
    JSON.parse(await readFile(join(found.filesDir, CAPTURE_FILE), "utf8")),
  );
  return parsed.success ? parsed.data : undefined;
}

/**
 * The agent's first real model request under these conditions: from the store, else by one run of the real agent
 * with a marker for its query, through a recording proxy in front of its API; stored for the next time.
 */
export async function captureFirstRequest(input: CaptureInput): Promise<CaptureResult> {
  const { ctx, adapter } = input;
  const key = input.key ?? (await captureKey(ctx, input.description));
  const earlier = await stored(input.store, key);
  if (earlier) return { capture: earlier, captured: false };
  if (!ctx.agent.apiBaseUrl)
    return { reason: `${ctx.agent.name} does not say where it sends model requests` };
  const proxy = await startRecordingProxy(ctx.agent.apiBaseUrl);
  const marker = replayMarker();
  const runDir = join(ctx.tempRoot, `replay-capture-${marker.slice(-8)}`);
  // Its workspace in a folder of its own: a trigger run the agent makes meanwhile (a query not screened, as
  // optimize's test queries) is named like it (q1-r1) and would otherwise share its folder, and see its skill.
  const tempRoot = join(runDir, "temp");
  await mkdir(tempRoot, { recursive: true });
  const name = syntheticName(ctx.skillName);
  let error: string | undefined;
  try {
    const agent = {
      ...ctx.agent,
      run: (request: Parameters<typeof ctx.agent.run>[0]) =>
        ctx.agent.run({
          ...request,
          apiBaseUrl: proxy.url,
          // Sandboxed, the run's one network target is the proxy, which passes the requests on from outside.
          ...(ctx.agent.sandbox
            ? { sandbox: { ...ctx.agent.sandbox, network: { kind: "simulator" as const, url: proxy.url } } }
            : {}),
        }),
    };
    ({ error } = await executeTriggerRun(
      // Stryker disable next-line BooleanLiteral: equivalent, the capture run's record is never scored
      { queryIndex: 0, query: marker, shouldTrigger: false, runNumber: 1, syntheticName: name, runDir },
      // Its retries are not a trigger run's: no progress line names them.
      { ...withoutRetryReport(ctx), agent, tempRoot },
    ));
  } finally {
    await proxy.close();
  }
  const first = proxy.recorded.find((r) => adapter.isFirstRequest(r, marker));
  if (!first)
    return {
      reason: `the capture run sent no model request with tools and its query${error ? ` (${error})` : ""}`,
    };
  const capture: ReplayCapture = {
    agent: ctx.agent.name,
    marker,
    synthetic_name: name,
    method: first.method,
    path: first.path,
    headers: kept(first, adapter.droppedHeaders),
    body: first.body,
  };
  if (input.store) {
    const dir = join(ctx.tempRoot, `replay-capture-${marker.slice(-8)}-stored`);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, a new folder right in the existing temp root
    await mkdir(dir, { recursive: true });
    await writeJson(join(dir, CAPTURE_FILE), capture);
    await input.store.put("replay-capture", key, {
      runDir: dir,
      source: storeSource(input.iterationDir, join(input.iterationDir, "triggers", "replay-capture"), 0),
    });
  }
  return { capture, captured: true };
}
