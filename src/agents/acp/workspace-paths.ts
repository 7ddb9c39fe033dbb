import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

// The real path of `path`, or of its nearest existing ancestor with the rest appended: a file about to be written
// does not exist yet, and a link in its folder must not carry it out of the workspace.
function realish(path: string): string {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return [realpathSync(at), ...rest].join(sep);
    } catch {}
    if (dirname(at) === at) return path;
    // `at` less its folder is always one slash and one name: neither its slash nor its name's spelling can lead
    // into a root, as what it names does not exist.
    // Stryker disable next-line Regex,StringLiteral: equivalent, one slash then a name that does not exist
    rest.unshift(at.slice(dirname(at).length).replace(/^[\\/]+/, ""));
  }
}

function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * Whether `path` lies inside one of `roots`: absolute (ACP sends absolute paths; a relative one is read against the
 * first root), with `..` and symbolic links resolved, so neither can lead out of the workspace.
 */
export function insideRoots(path: string, roots: readonly string[]): boolean {
  if (roots.length === 0 || path === "") return false;
  const absolute = isAbsolute(path) ? resolve(path) : resolve(roots[0]!, path);
  const real = realish(absolute);
  return roots.some((root) => {
    const realRoot = realish(resolve(root));
    return within(absolute, resolve(root)) && within(real, realRoot);
  });
}
