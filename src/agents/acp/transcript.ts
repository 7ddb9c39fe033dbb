import type { AgentEvent } from "../events.js";
import { isObject, jsonLineObject } from "../json-lines.js";
import { createAcpMapper, type PromptEnd } from "./updates.js";

/**
 * A stored ACP transcript as normalised events: the agent's `session/update` notifications replayed, and skillgym's
 * own lines (the session's start, the permissions it allowed, what it refused, the prompt's end) in their places.
 */
// Stryker disable next-line ArrayDeclaration: equivalent, a title's word never holds a space, as the added name does
export function parseAcpTranscript(text: string, skills: readonly string[] = []): AgentEvent[] {
  const events: AgentEvent[] = [];
  let mapper = createAcpMapper({ skills });
  for (const line of text.split("\n")) {
    const data = jsonLineObject(line);
    if (Array.isArray(data)) {
      events.push(...data);
      continue;
    }
    if (data.from === "agent" && isObject(data.message)) {
      const message = data.message;
      if (message.method === "session/update" && isObject(message.params) && isObject(message.params.update))
        events.push(...mapper.update(message.params.update));
    } else if (data.from === "skillgym") {
      if (isObject(data.init) && data.init.kind === "init") {
        const init = data.init as Extract<AgentEvent, { kind: "init" }>;
        mapper = createAcpMapper({ skills: init.skills, model: init.model });
        events.push(init);
      } else if (isObject(data.allowed)) events.push(...mapper.permission(data.allowed));
      else if (isObject(data.refused)) events.push(data.refused as Extract<AgentEvent, { kind: "refused" }>);
      else if (isObject(data.end)) events.push(...mapper.finish(data.end as PromptEnd));
    }
  }
  return events;
}
