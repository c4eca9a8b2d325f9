import type { ArgumentNode, DocumentNode, FieldNode, GraphQLSchema, SelectionSetNode, ValueNode } from 'graphql';

/**
 * The document as the cost limit weighs it (docs/limits.md, "static cost"): GraphQL Armor's cost
 * multiplies a list's cost by its `first` (or `last`) only when the argument is written as a number
 * in the document. Given as a variable, or left to the field's default, the list counted as one
 * item: `memories(first: $n)` with n = 500 cost what `memories(first: 1)` costs. Here each such
 * argument is written in as the number the operation will run with (the variable's value, else the
 * variable's default, else the field's default), so the same rule weighs what runs. Pure: the
 * document given is not changed; a field the schema does not know is left as it is (validation
 * reports it).
 */
export function withListSizes(schema: GraphQLSchema, doc: DocumentNode, variables: Record<string, unknown> | null | undefined): DocumentNode {
  const vars = variables ?? {};
  const definitions = doc.definitions.map((d) => {
    if (d.kind === 'OperationDefinition') {
      const root = d.operation === 'query' ? schema.getQueryType() : d.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
      const defaults = new Map((d.variableDefinitions ?? []).map((v) => [v.variable.name.value, v.defaultValue]));
      const sized = (name: string): Sized => {
        const v = vars[name];
        if (typeof v === 'number') return v;
        if (v !== undefined) return null;
        const dflt = defaults.get(name);
        return dflt === undefined ? 'absent' : dflt.kind === 'IntValue' ? Number(dflt.value) : null;
      };
      return root ? { ...d, selectionSet: walk(schema, d.selectionSet, root.name, sized) } : d;
    }
    if (d.kind === 'FragmentDefinition') {
      // (a fragment's variables are the operation's: any operation of the document may run it)
      const sized = (name: string): Sized => (typeof vars[name] === 'number' ? (vars[name] as number) : vars[name] === undefined ? 'absent' : null);
      return { ...d, selectionSet: walk(schema, d.selectionSet, d.typeCondition.name.value, sized) };
    }
    return d;
  });
  return { ...doc, definitions };
}

const SIZES = new Set(['first', 'last']);

/**
 * What a variable makes of a size: its number; 'absent' when neither the variables nor the
 * variable's default give it one (the field's default applies, as in execution); null when it is
 * something else (null, or a value execution will refuse): the argument is left as written.
 */
type Sized = number | 'absent' | null;

interface FieldsOf { getFields?: () => Record<string, { args: readonly { name: string; defaultValue?: unknown }[]; type: unknown }> }

function walk(schema: GraphQLSchema, set: SelectionSetNode, typeName: string, sized: (variable: string) => Sized): SelectionSetNode {
  const type = schema.getType(typeName) as FieldsOf | undefined;
  const fields = type?.getFields?.() ?? {};
  const selections = set.selections.map((s) => {
    if (s.kind === 'InlineFragment') {
      return s.selectionSet ? { ...s, selectionSet: walk(schema, s.selectionSet, s.typeCondition?.name.value ?? typeName, sized) } : s;
    }
    if (s.kind !== 'Field') return s;
    const def = fields[s.name.value];
    if (!def) return s;
    const field: FieldNode = { ...s, arguments: argumentsOf(s, def.args, sized) };
    return s.selectionSet ? { ...field, selectionSet: walk(schema, s.selectionSet, namedType(def.type), sized) } : field;
  });
  return { ...set, selections };
}

/** The field's arguments with `first`/`last` as numbers where the operation's values say which. */
function argumentsOf(node: FieldNode, defs: readonly { name: string; defaultValue?: unknown }[], sized: (variable: string) => Sized): ArgumentNode[] {
  const out = (node.arguments ?? []).map((a) => {
    if (!SIZES.has(a.name.value) || a.value.kind !== 'Variable') return a;
    const v = sized(a.value.name.value);
    const n = v === 'absent' ? defaultOf(defs, a.name.value) : v;
    return n === null ? a : { ...a, value: intValue(n) };
  });
  for (const def of defs) {
    if (!SIZES.has(def.name) || out.some((a) => a.name.value === def.name)) continue;
    const n = defaultOf(defs, def.name);
    if (n !== null) out.push({ kind: 'Argument' as ArgumentNode['kind'], name: { kind: 'Name' as ArgumentNode['name']['kind'], value: def.name }, value: intValue(n) });
  }
  return out;
}

function defaultOf(defs: readonly { name: string; defaultValue?: unknown }[], name: string): number | null {
  const v = defs.find((d) => d.name === name)?.defaultValue;
  return typeof v === 'number' ? v : null;
}

/** (a size the guard refuses, a negative or fractional one, weighs as written: the cost rule reads the integer part) */
const intValue = (n: number): ValueNode => ({ kind: 'IntValue' as ValueNode['kind'], value: String(Math.max(0, Math.trunc(n))) }) as ValueNode;

function namedType(t: unknown): string {
  let cur = t as { ofType?: unknown; name?: string };
  while (cur.ofType) cur = cur.ofType as typeof cur;
  return cur.name ?? '';
}
