import {
  GraphQLError,
  getNamedType,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  isObjectType,
  isInterfaceType,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';

/**
 * Cost limits for the member API (decisions, README): a query deeper than MAX_DEPTH or costlier than
 * MAX_COMPLEXITY is refused before any resolver runs. Cost: 1 per field; a connection field multiplies the
 * cost of its selection by its page size (`first`; a variable counts as the connection's maximum, since
 * validation runs before variables are known). Introspection fields count like any other (150
 * aliased `__schema` selections once returned 3 MB for a 17 KB request), and a request may hold at most
 * MAX_INTROSPECTION_SELECTIONS `__schema`/`__type` selections (all operations, fragments expanded): one is
 * what every real tool sends. Everything here is a pure function of (schema, document), so the verdict can be
 * cached with the parsed document.
 */
export const MAX_DEPTH = 10;
export const MAX_COMPLEXITY = 25_000;
export const MAX_INTROSPECTION_SELECTIONS = 1;
/**
 * Depth of a `__schema`/`__type` subtree, measured on its own: the standard introspection query of graphql-js
 * (GraphiQL, codegen tools) nests `ofType` seven times and is 15 deep. Its breadth (fields of the type of a field
 * of a type...) is bounded by graphql-js's own MaxIntrospectionDepthRule, part of specifiedRules.
 */
export const MAX_INTROSPECTION_DEPTH = 20;
/**
 * Fields inside `__schema`/`__type` (fragments expanded). The standard introspection query has 220-230; aliased
 * copies of a list (`a1: types {...} a2: types {...}`) cost little each but multiply the answer, so they get
 * their own, tighter budget than MAX_COMPLEXITY.
 */
export const MAX_INTROSPECTION_FIELDS = 300;
/**
 * Largest serialized answer of the member API. The cost limit bounds real answers far below it (the app's
 * biggest sync page is a few hundred KiB; the full introspection answer is about 70 KiB).
 */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

interface Limits {
  maxDepth: number;
  maxComplexity: number;
  /** Default and maximum `first` per connection field, e.g. payments: {default 50, max 50}. */
  pageSize(fieldName: string): { default: number; max: number };
  /** Default MAX_INTROSPECTION_SELECTIONS. */
  maxIntrospectionSelections?: number;
}

function fieldsOf(type: GraphQLCompositeType | null | undefined) {
  return type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : undefined;
}

/** The field's definition, meta fields included (GraphQL spec §4.1: __schema and __type on the query root). */
function fieldDef(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType | null | undefined,
  name: string,
) {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent && parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return fieldsOf(parent)?.[name];
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
    for (const d of context.getDocument().definitions)
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

    interface Measure {
      depth: number;
      cost: number;
      /** `__schema`/`__type` selections. */
      introspection: number;
      /** Deepest `__schema`/`__type` subtree (its own limit, see MAX_INTROSPECTION_DEPTH). */
      introspectionDepth: number;
      /** Fields inside `__schema`/`__type` subtrees. */
      introspectionFields: number;
    }
    const add = (into: Measure, m: Measure, depthOffset: number): void => {
      into.depth = Math.max(into.depth, m.depth + depthOffset);
      into.cost += m.cost;
      into.introspection += m.introspection;
      into.introspectionDepth = Math.max(into.introspectionDepth, m.introspectionDepth);
      into.introspectionFields += m.introspectionFields;
    };

    // Fragment cycles are rejected by graphql's own rules, and the `seen` guard keeps this walk finite even
    // before they run.
    function measure(
      set: SelectionSetNode,
      parent: GraphQLCompositeType | null | undefined,
      seen: ReadonlySet<string>,
    ): Measure {
      const out: Measure = {
        depth: 0,
        cost: 0,
        introspection: 0,
        introspectionDepth: 0,
        introspectionFields: 0,
      };
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          const name = sel.name.value;
          const def = fieldDef(schema, parent, name);
          const childType = def ? (getNamedType(def.type) as GraphQLCompositeType) : null;
          const inner = sel.selectionSet
            ? measure(sel.selectionSet, childType, seen)
            : {
                depth: 0,
                cost: 0,
                introspection: 0,
                introspectionDepth: 0,
                introspectionFields: 0,
              };
          // A field costs 1 plus its selection, introspection included.
          const cost =
            1 +
            (childType && childType.name.endsWith('Connection')
              ? inner.cost * firstArg(sel, limits.pageSize(name))
              : inner.cost);
          if (def === SchemaMetaFieldDef || def === TypeMetaFieldDef) {
            out.introspection += 1 + inner.introspection;
            out.introspectionDepth = Math.max(out.introspectionDepth, inner.depth + 1);
            // Every field below counts (inner.cost is its field count: introspection has no connections).
            out.introspectionFields += cost;
            out.depth = Math.max(out.depth, 1);
            out.cost += cost;
          } else {
            add(out, { ...inner, cost }, 1);
          }
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          const t = sel.typeCondition
            ? (schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType)
            : parent;
          add(out, measure(sel.selectionSet, t, seen), 0);
        } else {
          const frag = fragments.get(sel.name.value);
          if (!frag || seen.has(frag.name.value)) continue;
          add(
            out,
            measure(
              frag.selectionSet,
              schema.getType(frag.typeCondition.name.value) as GraphQLCompositeType,
              new Set([...seen, frag.name.value]),
            ),
            0,
          );
        }
      }
      return out;
    }

    const maxIntrospection = limits.maxIntrospectionSelections ?? MAX_INTROSPECTION_SELECTIONS;
    let introspectionTotal = 0;
    let introspectionFieldsTotal = 0;
    let introspectionReported = false;
    let introspectionFieldsReported = false;

    return {
      OperationDefinition(op) {
        const root =
          op.operation === 'query'
            ? schema.getQueryType()
            : op.operation === 'mutation'
              ? schema.getMutationType()
              : schema.getSubscriptionType();
        const { depth, cost, introspection, introspectionDepth, introspectionFields } = measure(
          op.selectionSet,
          root,
          new Set(),
        );
        introspectionTotal += introspection;
        introspectionFieldsTotal += introspectionFields;
        if (introspectionFieldsTotal > MAX_INTROSPECTION_FIELDS && !introspectionFieldsReported) {
          introspectionFieldsReported = true;
          context.reportError(
            new GraphQLError(
              `Introspection selects ${introspectionFieldsTotal} fields; the limit is ${MAX_INTROSPECTION_FIELDS}.`,
              {
                nodes: [op],
                extensions: {
                  code: 'QUERY_TOO_COMPLEX',
                  introspectionFields: introspectionFieldsTotal,
                  maxIntrospectionFields: MAX_INTROSPECTION_FIELDS,
                },
              },
            ),
          );
        }
        if (introspectionDepth > MAX_INTROSPECTION_DEPTH) {
          context.reportError(
            new GraphQLError(
              `Introspection depth ${introspectionDepth} exceeds the limit of ${MAX_INTROSPECTION_DEPTH}.`,
              {
                nodes: [op],
                extensions: {
                  code: 'QUERY_TOO_DEEP',
                  depth: introspectionDepth,
                  maxDepth: MAX_INTROSPECTION_DEPTH,
                },
              },
            ),
          );
        }
        if (introspectionTotal > maxIntrospection && !introspectionReported) {
          introspectionReported = true;
          context.reportError(
            new GraphQLError(
              `A request may select __schema or __type at most ${maxIntrospection} time(s).`,
              {
                nodes: [op],
                extensions: {
                  code: 'INTROSPECTION_LIMIT',
                  maxIntrospectionSelections: maxIntrospection,
                },
              },
            ),
          );
        }
        if (depth > limits.maxDepth) {
          context.reportError(
            new GraphQLError(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}.`, {
              nodes: [op],
              extensions: { code: 'QUERY_TOO_DEEP', depth, maxDepth: limits.maxDepth },
            }),
          );
        }
        if (cost > limits.maxComplexity) {
          context.reportError(
            new GraphQLError(
              `Query complexity ${cost} exceeds the limit of ${limits.maxComplexity}.`,
              {
                nodes: [op],
                extensions: {
                  code: 'QUERY_TOO_COMPLEX',
                  complexity: cost,
                  maxComplexity: limits.maxComplexity,
                },
              },
            ),
          );
        }
      },
    };
  };
}
