import type { IncomingHttpHeaders } from "node:http";
import type { SimRequest } from "../conversation.js";
import type { SimReply } from "../model.js";

/** A request as one wire format carries it, read into the conversation model. */
export interface WireRequest {
  request: SimRequest;
  stream: boolean;
  inputTokens: number;
  /** The model the request asked for, on wires whose answers name it back. */
  model?: string;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One wire format the simulator speaks: it reads a request into the conversation model and writes the reply back. */
export interface Protocol {
  /** The request log's name for a plain answer on this wire. */
  plainAction: string;
  /** `url` is the request's path and query, for wires that carry the model or the method there. */
  read(body: string, headers: IncomingHttpHeaders, url?: string): WireRequest;
  /** The reply as the `n`-th answer the simulator gives. */
  write(reply: SimReply, wire: WireRequest, n: number): HttpAnswer;
  /** A simulated fault (429, 500, 529) in this wire's error shape. */
  error(status: number): HttpAnswer;
}

export function jsonAnswer(status: number, body: object): HttpAnswer {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}
