import {
  GraphQLError,
  getNamedType,
  isObjectType,
  isInterfaceType,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';

/**
 * Cost limits for the member API (decisions, README): a query deeper than MAX_DEPTH or costlier than
 * MAX_COMPLEXITY is refused before any resolver runs. Cost: 1 per field; a connection field multiplies the
 * cost of its selection by its page size (`first`; a variable counts as the connection's maximum, since
 * validation runs before variables are known). Introspection (`__schema`, `__type`) is not counted.
 */
export const MAX_DEPTH = 10;
export const MAX_COMPLEXITY = 25_000;

interface Limits {
  maxDepth: number;
  maxComplexity: number;
  /** Default and maximum `first` per connection field, e.g. payments: {default 50, max 50}. */
  pageSize(fieldName: string): { default: number; max: number };
}

function fieldsOf(type: GraphQLCompositeType | null | undefined) {
  return type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : undefined;
}

function firstArg(node: FieldNode, size: { default: number; max: number }): number {
  const arg = node.arguments?.find((a) => a.name.value === 'first');
  const v: ValueNode | undefined = arg?.value;
  if (!v) return size.default;
  if (v.kind === Kind.INT) return Math.max(0, Math.min(Number(v.value), size.max));
  return size.max;
}

export function costLimitsRule(limits: Limits) {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

    // Returns [depth, cost] of a selection set; fragment cycles are rejected by graphql's own rules, and the
    // `seen` guard keeps this walk finite even before they run.
    function measure(set: SelectionSetNode, parent: GraphQLCompositeType | null | undefined, seen: ReadonlySet<string>): [number, number] {
      let depth = 0;
      let cost = 0;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          const name = sel.name.value;
          if (name.startsWith('__')) continue;
          const def = fieldsOf(parent)?.[name];
          const childType = def ? (getNamedType(def.type) as GraphQLCompositeType) : null;
          const [d, c0] = sel.selectionSet ? measure(sel.selectionSet, childType, seen) : [0, 0];
          const c = childType && childType.name.endsWith('Connection') ? c0 * firstArg(sel, limits.pageSize(name)) : c0;
          depth = Math.max(depth, d + 1);
          cost += 1 + c;
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          const t = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType) : parent;
          const [d, c] = measure(sel.selectionSet, t, seen);
          depth = Math.max(depth, d);
          cost += c;
        } else {
          const frag = fragments.get(sel.name.value);
          if (!frag || seen.has(frag.name.value)) continue;
          const [d, c] = measure(frag.selectionSet, schema.getType(frag.typeCondition.name.value) as GraphQLCompositeType, new Set([...seen, frag.name.value]));
          depth = Math.max(depth, d);
          cost += c;
        }
      }
      return [depth, cost];
    }

    return {
      OperationDefinition(op) {
        const root = op.operation === 'query' ? schema.getQueryType() : op.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
        const [depth, cost] = measure(op.selectionSet, root, new Set());
        if (depth > limits.maxDepth) {
          context.reportError(
            new GraphQLError(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}.`, { nodes: [op], extensions: { code: 'QUERY_TOO_DEEP', depth, maxDepth: limits.maxDepth } }),
          );
        }
        if (cost > limits.maxComplexity) {
          context.reportError(
            new GraphQLError(`Query complexity ${cost} exceeds the limit of ${limits.maxComplexity}.`, {
              nodes: [op],
              extensions: { code: 'QUERY_TOO_COMPLEX', complexity: cost, maxComplexity: limits.maxComplexity },
            }),
          );
        }
      },
    };
  };
}
