import { z } from "zod";

// capture.json in the result store: an agent's first real model request, kept to be sent again with other queries.
export const ReplayCapture = z.looseObject({
  agent: z.string(),
  /** The placeholder query the capture run was given; replays put the query wherever it stands in `body`. */
  marker: z.string().min(8),
  /** The name the skill under test was installed under in the capture run: the name the request lists it by. */
  synthetic_name: z.string(),
  method: z.string(),
  /** Path and query string, after the base URL. */
  path: z.string(),
  /** The request's headers without the credentials, the session and the hop's own (host, length). */
  headers: z.record(z.string(), z.string()),
  /** The request body exactly as the agent sent it. */
  body: z.string(),
});
export type ReplayCapture = z.infer<typeof ReplayCapture>;
