// Plain CommonJS for `node -e`, like the watchdog: no file to find beside the compiled code.
// Runs inside the sandbox as the agent's parent. argv: <config JSON> <command> <args…>. It listens on
// 127.0.0.1:<port> (the sandbox's own loopback: the only one there is), hands each connection to the Unix socket
// skillgym serves outside, starts the agent, passes signals to it, and exits as it exited.
export const FORWARDER_SOURCE = `"use strict";
const net = require("node:net");
const { spawn } = require("node:child_process");
const [config, command, ...args] = process.argv.slice(1);
const { port, socket } = JSON.parse(config);
const server = net.createServer((inside) => {
  const outside = net.connect(socket);
  const close = () => { inside.destroy(); outside.destroy(); };
  inside.on("error", close);
  outside.on("error", close);
  inside.pipe(outside);
  outside.pipe(inside);
});
server.on("error", (error) => {
  process.stderr.write("skillgym sandbox: cannot listen on 127.0.0.1:" + port + ": " + error.message + "\\n");
  process.exit(126);
});
server.listen(port, "127.0.0.1", () => {
  const child = spawn(command, args, { stdio: "inherit" });
  for (const name of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(name, () => child.kill(name));
  child.on("error", (error) => {
    process.stderr.write("skillgym sandbox: cannot start " + command + ": " + error.message + "\\n");
    process.exit(127);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    process.exit(code === null ? 1 : code);
  });
});
`;
