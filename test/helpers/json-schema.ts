/**
 * A small JSON Schema (2020-12) validator for the keywords docs/node-check-report.schema.json
 * uses: type, enum, const, properties, required, additionalProperties, items, pattern, $ref to
 * "#/$defs/…". Any other keyword throws, so the schema cannot rely on one this does not check.
 * `strict` also reports properties the schema does not name (the schema itself stays open: fields
 * may be added; the test uses strict to catch a field added to the report but not to the schema).
 */
type Schema = Record<string, unknown>;

const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', '$defs']);
const CHECKED = new Set(['type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', 'pattern', '$ref']);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function validate(schema: Schema, value: unknown, options: { strict?: boolean } = {}): string[] {
  const root = schema;
  const errors: string[] = [];
  const walk = (s: Schema, v: unknown, at: string): void => {
    for (const key of Object.keys(s)) if (!ANNOTATIONS.has(key) && !CHECKED.has(key)) throw new Error(`schema keyword ${key} at ${at} is not supported by this validator`);
    if (typeof s.$ref === 'string') {
      const m = /^#\/\$defs\/([A-Za-z0-9_-]+)$/.exec(s.$ref);
      const target = m ? (root.$defs as Record<string, Schema> | undefined)?.[m[1]!] : undefined;
      if (!target) throw new Error(`unresolvable $ref ${s.$ref} at ${at}`);
      walk(target, v, at);
    }
    if (s.type !== undefined) {
      const types = ([] as string[]).concat(s.type as string | string[]);
      const actual = typeOf(v);
      if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) errors.push(`${at}: expected ${types.join(' or ')}, got ${actual}`);
    }
    if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(v)) errors.push(`${at}: expected ${JSON.stringify(s.const)}`);
    if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) errors.push(`${at}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s.enum)}`);
    if (typeof s.pattern === 'string' && typeof v === 'string' && !new RegExp(s.pattern, 'u').test(v)) errors.push(`${at}: ${JSON.stringify(v)} does not match ${s.pattern}`);
    if (Array.isArray(v) && s.items) v.forEach((item, i) => walk(s.items as Schema, item, `${at}[${i}]`));
    if (typeOf(v) === 'object') {
      const object = v as Record<string, unknown>;
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      for (const name of (s.required ?? []) as string[]) if (!(name in object)) errors.push(`${at}: missing required ${name}`);
      for (const [name, child] of Object.entries(object)) {
        if (properties[name]) walk(properties[name]!, child, `${at}.${name}`);
        else if (s.additionalProperties === false || (options.strict && s.properties)) errors.push(`${at}: property ${name} is not in the schema`);
      }
    }
  };
  walk(schema, value, '$');
  return errors;
}
