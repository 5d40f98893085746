/**
 * Permission nodes with wildcards. Nodes are dotted
 * names; in a granted pattern a `*` segment matches any one segment, and a trailing `*` matches one or
 * more remaining segments. So `*` grants everything, `npc.web.*` every NPC endpoint.
 */
export function matchesNode(pattern: string, node: string): boolean {
  const want = pattern.split('.');
  const have = node.split('.');
  for (let i = 0; i < want.length; i++) {
    const segment = want[i];
    if (segment === '*' && i === want.length - 1) return have.length > i;
    if (i >= have.length) return false;
    if (segment !== '*' && segment !== have[i]) return false;
  }
  return want.length === have.length;
}

export function grants(patterns: Iterable<string>, node: string): boolean {
  for (const pattern of patterns) if (matchesNode(pattern, node)) return true;
  return false;
}

/** Shape of a valid pattern: dotted segments of [a-z0-9_-] or `*`. */
export const PERMISSION_PATTERN = '^(\\*|[a-z0-9_-]+)(\\.(\\*|[a-z0-9_-]+))*$';
