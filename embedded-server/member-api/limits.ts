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
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';

/**
 * Cost limits for the member API (decisions, README): a query deeper than MAX_DEPTH or costlier
 * than MAX_COMPLEXITY is refused before any resolver runs. Cost: 1 per field; a connection field
 * multiplies the cost of its selection by its page size (`first`; a variable counts as the
 * connection's maximum, since validation runs before variables are known). Introspection fields
 * count like any other (150 aliased `__schema` selections once returned 3 MB for a 17 KB request),
 * and a request may hold at most MAX_INTROSPECTION_SELECTIONS `__schema`/`__type` selections (all
 * operations, fragments expanded): one is what every real tool sends. Everything here is a pure
 * function of (schema, document), so the verdict can be cached with the parsed document.
 */
export const MAX_DEPTH = 10;
export const MAX_COMPLEXITY = 25_000;
export const MAX_INTROSPECTION_SELECTIONS = 1;
/**
 * Depth of a `__schema`/`__type` subtree, measured on its own: the standard introspection query of
 * graphql-js (GraphiQL, codegen tools) nests `ofType` seven times and is 15 deep. Its breadth
 * (fields of the type of a field of a type...) is bounded by graphql-js's own
 * MaxIntrospectionDepthRule, part of specifiedRules.
 */
export const MAX_INTROSPECTION_DEPTH = 20;
/**
 * Fields inside `__schema`/`__type` (fragments expanded). The standard introspection query has
 * 220-230; aliased copies of a list (`a1: types {...} a2: types {...}`) cost little each but
 * multiply the answer, so they get their own, tighter budget than MAX_COMPLEXITY.
 */
export const MAX_INTROSPECTION_FIELDS = 300;
/**
 * Largest serialized answer of the member API. The cost limit bounds real answers far below it (the
 * app's biggest sync page is a few hundred KiB; the full introspection answer is about 70 KiB).
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

/**
 * The field's definition, meta fields included (GraphQL spec §4.1: __schema and __type on the query
 * root).
 */
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

const emptyMeasure = (): Measure => ({
  depth: 0,
  cost: 0,
  introspection: 0,
  introspectionDepth: 0,
  introspectionFields: 0,
});

function add(into: Measure, m: Measure, depthOffset: number): void {
  into.depth = Math.max(into.depth, m.depth + depthOffset);
  into.cost += m.cost;
  into.introspection += m.introspection;
  into.introspectionDepth = Math.max(into.introspectionDepth, m.introspectionDepth);
  into.introspectionFields += m.introspectionFields;
}

/** What a walk over one document reads: the schema, the document's fragments and the limits. */
interface Walk {
  schema: GraphQLSchema;
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  limits: Limits;
}

function measureField(
  walk: Walk,
  sel: FieldNode,
  parent: GraphQLCompositeType | null | undefined,
  seen: ReadonlySet<string>,
  out: Measure,
): void {
  const name = sel.name.value;
  const def = fieldDef(walk.schema, parent, name);
  const childType = def ? (getNamedType(def.type) as GraphQLCompositeType) : null;
  const inner = sel.selectionSet
    ? measure(walk, sel.selectionSet, childType, seen)
    : emptyMeasure();
  // A field costs 1 plus its selection, introspection included.
  const cost =
    1 +
    (childType && childType.name.endsWith('Connection')
      ? inner.cost * firstArg(sel, walk.limits.pageSize(name))
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
}

// Fragment cycles are rejected by graphql's own rules, and the `seen` guard keeps this walk finite
// even before they run.
function measure(
  walk: Walk,
  set: SelectionSetNode,
  parent: GraphQLCompositeType | null | undefined,
  seen: ReadonlySet<string>,
): Measure {
  const out = emptyMeasure();
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      measureField(walk, sel, parent, seen, out);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const t = sel.typeCondition
        ? (walk.schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType)
        : parent;
      add(out, measure(walk, sel.selectionSet, t, seen), 0);
    } else {
      const frag = walk.fragments.get(sel.name.value);
      if (!frag || seen.has(frag.name.value)) continue;
      add(
        out,
        measure(
          walk,
          frag.selectionSet,
          walk.schema.getType(frag.typeCondition.name.value) as GraphQLCompositeType,
          new Set([...seen, frag.name.value]),
        ),
        0,
      );
    }
  }
  return out;
}

/**
 * The introspection budgets of one document: its selections and fields add up over all its
 * operations, and each budget is reported once, at the operation that passes it.
 */
class IntrospectionTally {
  readonly #maxSelections: number;
  #selections = 0;
  #fields = 0;
  #selectionsReported = false;
  #fieldsReported = false;

  constructor(maxSelections: number) {
    this.#maxSelections = maxSelections;
  }

  /** Adds one operation's measure; answers the errors it brings. */
  add(op: OperationDefinitionNode, m: Measure): GraphQLError[] {
    const errors: GraphQLError[] = [];
    this.#selections += m.introspection;
    this.#fields += m.introspectionFields;
    if (this.#fields > MAX_INTROSPECTION_FIELDS && !this.#fieldsReported) {
      this.#fieldsReported = true;
      errors.push(
        new GraphQLError(
          `Introspection selects ${this.#fields} fields; the limit is ${MAX_INTROSPECTION_FIELDS}.`,
          {
            nodes: [op],
            extensions: {
              code: 'QUERY_TOO_COMPLEX',
              introspectionFields: this.#fields,
              maxIntrospectionFields: MAX_INTROSPECTION_FIELDS,
            },
          },
        ),
      );
    }
    if (m.introspectionDepth > MAX_INTROSPECTION_DEPTH) {
      errors.push(
        new GraphQLError(
          `Introspection depth ${m.introspectionDepth} exceeds the limit of ${MAX_INTROSPECTION_DEPTH}.`,
          {
            nodes: [op],
            extensions: {
              code: 'QUERY_TOO_DEEP',
              depth: m.introspectionDepth,
              maxDepth: MAX_INTROSPECTION_DEPTH,
            },
          },
        ),
      );
    }
    if (this.#selections > this.#maxSelections && !this.#selectionsReported) {
      this.#selectionsReported = true;
      errors.push(
        new GraphQLError(
          `A request may select __schema or __type at most ${this.#maxSelections} time(s).`,
          {
            nodes: [op],
            extensions: {
              code: 'INTROSPECTION_LIMIT',
              maxIntrospectionSelections: this.#maxSelections,
            },
          },
        ),
      );
    }
    return errors;
  }
}

/** The depth and cost errors of one operation. */
function operationErrors(op: OperationDefinitionNode, m: Measure, limits: Limits): GraphQLError[] {
  const errors: GraphQLError[] = [];
  const { depth, cost } = m;
  if (depth > limits.maxDepth) {
    errors.push(
      new GraphQLError(`Query depth ${depth} exceeds the limit of ${limits.maxDepth}.`, {
        nodes: [op],
        extensions: { code: 'QUERY_TOO_DEEP', depth, maxDepth: limits.maxDepth },
      }),
    );
  }
  if (cost > limits.maxComplexity) {
    errors.push(
      new GraphQLError(`Query complexity ${cost} exceeds the limit of ${limits.maxComplexity}.`, {
        nodes: [op],
        extensions: {
          code: 'QUERY_TOO_COMPLEX',
          complexity: cost,
          maxComplexity: limits.maxComplexity,
        },
      }),
    );
  }
  return errors;
}

export function costLimitsRule(limits: Limits) {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions)
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const walk: Walk = { schema, fragments, limits };
    const tally = new IntrospectionTally(
      limits.maxIntrospectionSelections ?? MAX_INTROSPECTION_SELECTIONS,
    );
    return {
      OperationDefinition(op) {
        const root =
          op.operation === 'query'
            ? schema.getQueryType()
            : op.operation === 'mutation'
              ? schema.getMutationType()
              : schema.getSubscriptionType();
        const m = measure(walk, op.selectionSet, root, new Set());
        for (const error of [...tally.add(op, m), ...operationErrors(op, m, limits)])
          context.reportError(error);
      },
    };
  };
}
