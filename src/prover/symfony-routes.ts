/**
 * Symfony route imports: `config/routes.yaml` (and `config/routes/*.yaml`) load controllers from a
 * resource (`resource: ../src/Controller/`, `type: attribute`) under a `prefix` (`/{_locale}`). A
 * route's full path is that prefix followed by its class and method paths, and `access_control` in
 * security.yaml is written against the full path, so it must be matched with the prefix on.
 */
import { posix } from 'node:path';

/** One import of a routes file: the repository path it loads and the prefix it mounts it under. */
export interface RouteImport {
  /** A directory (ending in `/`) or a file, relative to the repository root. */
  resource: string;
  prefix: string;
  /** `config/routes.yaml:26` */
  evidence: string;
}

/** True for the routes files Symfony loads in every environment. */
export function isSymfonyRoutesFile(path: string): boolean {
  return /(^|\/)config\/routes(\/[\w.-]+)?\.ya?ml$/.test(path);
}

/** The scalar value of `key:` in one block of lines, unquoted, or null (a mapping or a missing key). */
function scalar(block: readonly string[], key: string): string | null {
  for (const line of block) {
    const match = new RegExp(`^\\s+${key}\\s*:\\s*(.*?)\\s*$`).exec(line);
    if (!match) continue;
    const value = (match[1] ?? '').replace(/\s+#.*$/, '').replace(/^(['"])(.*)\1$/, '$2');
    return value === '' ? null : value;
  }
  return null;
}

/** The imports with a prefix in one routes file (top-level entries with `resource` and a scalar `prefix`). */
function importsOf(path: string, text: string): RouteImport[] {
  const out: RouteImport[] = [];
  const lines = text.split(/\r?\n/);
  const dir = posix.dirname(path);
  for (let i = 0; i < lines.length; i++) {
    if (!/^[\w.@-]+\s*:\s*$/.test(lines[i] ?? '')) continue;
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && !/^\S/.test(lines[j] ?? ''); j++) block.push(lines[j] ?? '');
    const resource = scalar(block, 'resource');
    const prefix = scalar(block, 'prefix');
    if (!resource || !prefix || /^[@%]/.test(resource)) continue; // a bundle's or a parameter's resource is not the repository's
    const joined = posix.normalize(posix.join(dir, resource));
    if (joined.startsWith('..')) continue;
    out.push({ resource: resource.endsWith('/') ? `${joined.replace(/\/$/, '')}/` : joined, prefix: prefix.replace(/\/$/, ''), evidence: `${path}:${i + 1}` });
  }
  return out;
}

/** Every prefixed import of the repository's routes files. */
export function routeImports(configTexts: ReadonlyMap<string, string>): RouteImport[] {
  const out: RouteImport[] = [];
  for (const [path, text] of configTexts) if (isSymfonyRoutesFile(path)) out.push(...importsOf(path, text));
  return out;
}

/** The import that loads a controller file: the most specific resource containing it, or null. */
export function importOf(imports: readonly RouteImport[], controllerPath: string): RouteImport | null {
  let best: RouteImport | null = null;
  for (const candidate of imports) {
    const covers = candidate.resource.endsWith('/') ? controllerPath.startsWith(candidate.resource) : controllerPath === candidate.resource;
    if (covers && (best === null || candidate.resource.length > best.resource.length)) best = candidate;
  }
  return best;
}

/** A route a routes file declares itself: `name: { path: /x, controller: App\Controller\X::method }`. */
export interface YamlRoute {
  /** The controller class as written (`App\Controller\BlogController`), without a leading `\`. */
  controller: string;
  /** The method (`__invoke` for an invokable controller named alone). */
  method: string;
  path: string;
  /** `config/routes.yaml:12` */
  evidence: string;
}

/** `App\Controller\X::method`, `App\Controller\X` (invokable), as a route's controller value. */
function controllerOf(value: string): { controller: string; method: string } | null {
  // A double-quoted YAML string writes each backslash twice.
  const match = /^\\?([A-Za-z_][\w\\]*)(?:::(\w+))?$/.exec(value.trim().replace(/\\\\/g, '\\'));
  if (!match?.[1] || !/\\/.test(match[1])) return null; // a service id (`app.controller`) names no class
  return { controller: match[1], method: match[2] ?? '__invoke' };
}

/** The routes of one routes file that name a controller (`controller:` or `defaults: { _controller: }`) and a plain path. */
function routesOf(path: string, text: string): YamlRoute[] {
  const out: YamlRoute[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (!/^[\w.@-]+\s*:\s*$/.test(lines[i] ?? '')) continue;
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && !/^\S/.test(lines[j] ?? ''); j++) block.push(lines[j] ?? '');
    const routePath = scalar(block, 'path');
    const inline = block.map((l) => /_controller\s*:\s*['"]?([^'",}\s]+)/.exec(l)?.[1]).find((v) => v !== undefined);
    const named = controllerOf(scalar(block, 'controller') ?? scalar(block, '_controller') ?? inline ?? '');
    if (!routePath || !named) continue;
    out.push({ ...named, path: routePath, evidence: `${path}:${i + 1}` });
  }
  return out;
}

/** Every route the repository's routes files declare with a controller. */
export function yamlRoutes(configTexts: ReadonlyMap<string, string>): YamlRoute[] {
  const out: YamlRoute[] = [];
  for (const [path, text] of configTexts) if (isSymfonyRoutesFile(path)) out.push(...routesOf(path, text));
  return out;
}
