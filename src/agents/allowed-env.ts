/** Which of a parent's variables a child may see: exact names, and names that start with a prefix. */
export interface EnvAllowList {
  names?: readonly string[];
  prefixes?: readonly string[];
}

const PROXY_NAMES = ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY"];

/**
 * What every child may see, whoever it is: where programs are, the locale, the terminal, the time zone, the temporary
 * folder (an adapter may point it at the run's own), the shell, the proxy and the CA certificates; on Windows the
 * system folders a process needs to start. Nothing here is a credential.
 */
export const BASE_ENV: EnvAllowList = {
  names: [
    "PATH",
    "LANG",
    "LANGUAGE",
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "TZ",
    "TMPDIR",
    "TMP",
    "TEMP",
    "SHELL",
    ...PROXY_NAMES,
    ...PROXY_NAMES.map((name) => name.toLowerCase()),
    "NODE_EXTRA_CA_CERTS",
    "NODE_USE_SYSTEM_CA",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "GIT_SSL_CAINFO",
    "SYSTEMROOT",
    "SYSTEMDRIVE",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
  ],
  prefixes: ["LC_"],
};

type Fold = (name: string) => string;

// Windows names its variables in any case (`Path`, `SystemRoot`); elsewhere `path` is not `PATH`. Read at each call,
// not on import, so a test can run Windows' way by setting the platform.
function foldOf(platform: NodeJS.Platform): Fold {
  // Stryker disable next-line MethodExpression: equivalent, both sides of every comparison are folded alike, and lower case matches the same (ASCII) names as upper case
  return platform === "win32" ? (name) => name.toUpperCase() : (name) => name;
}

function allows(list: EnvAllowList, name: string, fold: Fold): boolean {
  const key = fold(name);
  return (
    (list.names ?? []).some((allowed) => fold(allowed) === key) ||
    (list.prefixes ?? []).some((prefix) => key.startsWith(fold(prefix)))
  );
}

/**
 * A child's environment by allow-list: the parent's variables that the base or one of the lists names, nothing else.
 * An agent's credentials, a CI job's tokens and anything else skillgym was given stay out unless a list names them.
 */
export function allowedEnvironment(
  parent: NodeJS.ProcessEnv,
  ...lists: readonly EnvAllowList[]
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const fold = foldOf(process.platform);
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (allows(BASE_ENV, name, fold) || lists.some((list) => allows(list, name, fold))) env[name] = value;
  }
  return env;
}

/** The names a suite passes (evals.json `env`), as an allow-list. */
export function suiteNames(names: readonly string[] | undefined): EnvAllowList {
  return { names: names ?? [] };
}
