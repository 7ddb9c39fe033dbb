import { connect, createServer, type Server, type Socket } from "node:net";

/** Where a sandboxed run's connections may go: one host and port (the simulator), or HTTP CONNECT to named hosts. */
export type NetworkPolicy =
  | { kind: "target"; host: string; port: number }
  | { kind: "connect"; allowedHosts: readonly string[] };

/** The outside end of a sandbox's network: a Unix socket whose connections go only where the policy says. */
export interface NetworkGate {
  /** Hosts a CONNECT asked for and was refused (403), each once, in order. */
  refusedHosts(): string[];
  close(): Promise<void>;
}

const MAX_HEADER = 16 * 1024;

function pipeBoth(a: Socket, b: Socket): void {
  const close = () => {
    a.destroy();
    b.destroy();
  };
  for (const socket of [a, b]) {
    socket.on("error", close);
    socket.on("close", close);
  }
  a.pipe(b);
  b.pipe(a);
}

/** The host and port of a proxy request's first line: `CONNECT host:443 HTTP/1.1` or `GET http://host/ HTTP/1.1`. */
export function requestTarget(head: string): { method: string; host: string; port: number } | undefined {
  // split() always gives a first element.
  const [method, target] = head.split("\r\n")[0]!.split(" ");
  if (!method || !target) return undefined;
  if (method === "CONNECT") {
    const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(target);
    return match?.[1] && match[2]
      ? { method, host: match[1].toLowerCase(), port: Number(match[2]) }
      : undefined;
  }
  try {
    const url = new URL(target);
    return { method, host: url.hostname.toLowerCase(), port: Number(url.port || 80) };
  } catch {}
  return undefined;
}

// Only CONNECT to an allowed host passes; anything else is answered 403 and its host recorded.
function filterConnect(inside: Socket, allowed: ReadonlySet<string>, refuse: (host: string) => void): void {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) {
      if (buffered.length > MAX_HEADER) inside.destroy();
      return;
    }
    inside.off("data", onData);
    inside.pause();
    const target = requestTarget(buffered.subarray(0, end).toString("latin1"));
    const rest = buffered.subarray(end + 4);
    if (target?.method !== "CONNECT" || !allowed.has(target.host)) {
      refuse(target?.host ?? "(unreadable request)");
      inside.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
      return;
    }
    const outside = connect(target.port, target.host);
    outside.once("connect", () => {
      inside.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      // The bytes sent with the request (a TLS ClientHello, say); none is an empty write, which sends nothing.
      outside.write(rest);
      pipeBoth(inside, outside);
      // Stryker disable next-line CallExpression: equivalent, pipe() resumes a paused source itself
      inside.resume();
    });
    outside.once("error", () => {
      inside.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
  };
  inside.on("data", onData);
  // Stryker disable next-line ArrowFunction: equivalent, a socket that errs is destroyed anyway; the listener keeps the error from throwing
  inside.on("error", () => inside.destroy());
}

/** Serves `socketPath` until closed; every connection goes to the policy's target or through its CONNECT filter. */
export async function openNetworkGate(socketPath: string, policy: NetworkPolicy): Promise<NetworkGate> {
  const refused: string[] = [];
  const refuse = (host: string) => {
    if (!refused.includes(host)) refused.push(host);
  };
  // Stryker disable next-line ArrayDeclaration: equivalent, a target policy never looks at the allowed hosts
  const allowed = new Set(policy.kind === "connect" ? policy.allowedHosts.map((h) => h.toLowerCase()) : []);
  const open = new Set<Socket>();
  const server: Server = createServer((inside) => {
    open.add(inside);
    // Stryker disable next-line ArrowFunction,StringLiteral,CallExpression: equivalent, it only frees memory: close() destroying a closed socket does nothing
    inside.on("close", () => open.delete(inside));
    if (policy.kind === "target") pipeBoth(inside, connect(policy.port, policy.host));
    else filterConnect(inside, allowed, refuse);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    refusedHosts: () => [...refused],
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
