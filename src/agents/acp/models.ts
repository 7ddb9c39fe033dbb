import { isObject, type Json } from "../json-lines.js";

/** How an ACP agent lets its client choose the model: the request that sets one, and the models it offers. */
export interface ModelChoice {
  /** The model ids the agent offers. */
  ids: string[];
  /** The request that selects `model` in a session. */
  request(sessionId: string, model: string): { method: string; params: Record<string, unknown> };
}

// A select's values, flat or in groups.
function selectValues(options: unknown): string[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((o) =>
    !isObject(o)
      ? []
      : Array.isArray(o.options)
        ? selectValues(o.options)
        : typeof o.value === "string"
          ? [o.value]
          : [],
  );
}

/**
 * What a `session/new` answer says of model selection: a session config option of category "model" (ACP's stable
 * way, `session/set_config_option`), else the older `models` state (`session/set_model`, unstable); undefined when the
 * agent offers neither.
 */
export function modelChoiceOf(session: Json): ModelChoice | undefined {
  // Stryker disable next-line ArrayDeclaration: equivalent, a list holding no object holds no model option
  const options = Array.isArray(session.configOptions) ? session.configOptions : [];
  const option = options.find((o) => isObject(o) && o.category === "model" && o.type === "select");
  if (isObject(option) && typeof option.id === "string") {
    const configId = option.id;
    return {
      ids: selectValues(option.options),
      request: (sessionId, value) => ({
        method: "session/set_config_option",
        params: { sessionId, configId, value },
      }),
    };
  }
  const available = isObject(session.models) ? session.models.availableModels : undefined;
  if (Array.isArray(available))
    return {
      ids: available.flatMap((m) => (isObject(m) && typeof m.modelId === "string" ? [m.modelId] : [])),
      request: (sessionId, modelId) => ({ method: "session/set_model", params: { sessionId, modelId } }),
    };
  return undefined;
}

/** Why `--model` cannot go to an agent that offers `choice`: none when every model asked for is one it offers. */
export function modelRefusal(
  label: string,
  choice: ModelChoice | undefined,
  models: readonly string[],
): string | undefined {
  if (!choice) return `--model ${models.join(",")}: ${label} offers no model selection over ACP`;
  const missing = models.filter((m) => !choice.ids.includes(m));
  if (missing.length === 0) return undefined;
  const offered = choice.ids.length > 0 ? choice.ids.join(", ") : "none";
  return `--model ${missing.join(",")}: ${label} does not offer ${missing.length > 1 ? "these models" : "this model"} (it offers: ${offered})`;
}
