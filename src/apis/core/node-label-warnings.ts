// Node labels that have a newer name (pkg/api/node's deprecation notes): pods and persistent volumes warn
// when their node selection names one.

type Obj = Record<string, any>;

/** Each deprecated node label with what Kubernetes says of it. */
const DEPRECATED_NODE_LABELS: Record<string, string> = {
  'beta.platform.io/arch': 'deprecated since v1.14; use "platform.io/arch" instead',
  'beta.platform.io/os': 'deprecated since v1.14; use "platform.io/os" instead',
  'failure-domain.beta.platform.io/region': 'deprecated since v1.17; use "topology.platform.io/region" instead',
  'failure-domain.beta.platform.io/zone': 'deprecated since v1.17; use "topology.platform.io/zone" instead',
  'beta.platform.io/instance-type': 'deprecated since v1.17; use "node.platform.io/instance-type" instead',
};

/** nodeapi.GetNodeLabelDeprecatedMessage: what Kubernetes says of a deprecated node label, if it is one. */
export function deprecatedNodeLabelMessage(label: string): string | undefined {
  return Object.hasOwn(DEPRECATED_NODE_LABELS, label) ? DEPRECATED_NODE_LABELS[label] : undefined;
}

/** nodeapi.GetWarningsForNodeSelectorTerm: deprecated node labels in a term's match expressions. */
export function nodeSelectorTermWarnings(term: Obj | null | undefined, path: string): string[] {
  const expressions = term?.matchExpressions;
  const warnings: string[] = [];
  (Array.isArray(expressions) ? expressions : []).forEach((e: Obj | null, j: number) => {
    const label = String(e?.key ?? '');
    const note = deprecatedNodeLabelMessage(label);
    if (note) warnings.push(`${path}.matchExpressions[${j}].key: ${label} is ${note}`);
  });
  return warnings;
}
