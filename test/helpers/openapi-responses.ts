import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ObservedResponse } from '../../embedded-server/index';
import { buildOpenApi } from '../../embedded-server/admin-api/openapi';
import { adminRoutes } from '../../embedded-server/admin-api/routes';

/**
 * Checks answers of the embedded server against its own /openapi.json (OpenAPI 3.1, JSON Schema
 * 2020-12 through Ajv): the operation must declare the status (or `default`), the media type must
 * be one it declares, and a JSON body must fit the schema. Paths and methods the document does not
 * describe (GraphQL, /mcp, the HTML pages) are left alone: the document covers the REST endpoints
 * only (spec).
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Operation {
  pattern: RegExp;
  method: string;
  responses: Json;
  template: string;
}

const doc = buildOpenApi('http://127.0.0.1', adminRoutes) as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'openapi.json', components: doc.components }, 'openapi.json');

const operations: Operation[] = Object.entries(doc.paths as Record<string, Json>)
  .flatMap(([template, item]) =>
    Object.entries(item).map(([method, op]) => ({
      template,
      method: method.toUpperCase(),
      responses: (op as Json).responses as Json,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
  )
  // Literal paths before templated ones, as the router matches them.
  .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

const compiled = new Map<object, ValidateFunction>();
function validator(schema: Json): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    // Local references resolve against the document's components.
    const rewritten = JSON.parse(
      JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'),
    ) as Json;
    compiled.set(schema, (v = ajv.compile(rewritten)));
  }
  return v;
}

/**
 * The problems of one answer; an empty list when it fits the document or the document does not
 * describe it.
 */
export function openApiProblems(r: ObservedResponse): string[] {
  const op = operations.find((o) => o.method === r.method && o.pattern.test(r.path));
  if (!op) return [];
  const where = `${r.method} ${r.path} -> ${r.status} (${op.template})`;
  const declared = (op.responses[String(r.status)] ?? op.responses.default) as Json | undefined;
  if (!declared)
    return [`${where}: status not declared (declared: ${Object.keys(op.responses).join(', ')})`];
  const content = declared.content as Record<string, Json> | undefined;
  const type = String(r.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (!content)
    return r.body.length > 0 && r.method !== 'HEAD'
      ? [`${where}: a body (${type}) where none is declared`]
      : [];
  const media =
    content[type] ??
    Object.entries(content).find(
      ([k]) => k === '*/*' || (k.endsWith('/*') && type.startsWith(k.slice(0, -1))),
    )?.[1];
  if (!media)
    return [
      `${where}: media type ${type || '(none)'} not declared (declared: ${Object.keys(content).join(', ')})`,
    ];
  if (!/json$/.test(type) || r.method === 'HEAD' || !media.schema) return [];
  let body: unknown;
  try {
    body = JSON.parse(r.body.toString('utf8'));
  } catch {
    return [`${where}: the body is not JSON`];
  }
  const validate = validator(media.schema as Json);
  return validate(body) ? [] : [`${where}: ${ajv.errorsText(validate.errors)}`];
}
