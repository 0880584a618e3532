import { createHash } from "node:crypto";

/*
 * /v1/docs: the OpenAPI document rendered as one plain HTML page on the server. No script and no
 * third-party host, so it reads the same with JavaScript off, offline and under a strict CSP.
 */

/** The part of an OpenAPI 3.1 schema object the reference page and the fuzz test read. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: Schema | boolean;
  description?: string;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  const?: unknown;
};
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema; description?: string };
type MediaTypes = Record<string, { schema?: Schema }>;
type Operation = {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { description?: string; content?: MediaTypes };
  responses?: Record<string, { description?: string; content?: MediaTypes }>;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Inline code for the backticked words the summaries and descriptions use. */
const prose = (text = "") => escape(text).replace(/`([^`]+)`/g, "<code>$1</code>");

type Field = { name: string; type: string; required: boolean; notes: string };

function resolve(schema: Schema | undefined, document: OpenApiDocument): Schema {
  if (!schema) return {};
  if (schema.$ref) return resolve(document.components?.schemas?.[schema.$ref.split("/").pop()!], document);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((part) => resolve(part, document)), schema);
  return schema;
}

/** The schema without its null alternative, and whether null was one. */
function withoutNull(schema: Schema, document: OpenApiDocument): { schema: Schema; nullable: boolean } {
  const options = schema.anyOf ?? schema.oneOf;
  if (options) {
    const others = options.filter((option) => resolve(option, document).type !== "null");
    if (others.length === 1) return { schema: resolve(others[0], document), nullable: others.length < options.length };
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = schema.type.filter((type) => type !== "null");
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: false };
}

function typeName(schema: Schema, document: OpenApiDocument): string {
  const { schema: inner, nullable } = withoutNull(resolve(schema, document), document);
  let name: string;
  if (inner.const !== undefined) name = JSON.stringify(inner.const);
  else if (inner.enum) name = inner.enum.map((value) => JSON.stringify(value)).join(" | ");
  else if (inner.type === "array") name = `array of ${typeName(inner.items ?? {}, document)}`;
  else if (inner.anyOf ?? inner.oneOf)
    name = (inner.anyOf ?? inner.oneOf)!.map((o) => typeName(o, document)).join(" | ");
  else name = Array.isArray(inner.type) ? inner.type.join(" | ") : (inner.type ?? "any");
  return nullable ? `${name} | null` : name;
}

function notes(schema: Schema): string {
  const parts: string[] = [];
  if (schema.description) parts.push(prose(schema.description));
  const range = (low?: number, high?: number, unit = "") =>
    low !== undefined && high !== undefined
      ? `${low} to ${high}${unit}`
      : low !== undefined
        ? `at least ${low}${unit}`
        : `at most ${high}${unit}`;
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    parts.push(escape(range(schema.minLength, schema.maxLength, " characters")));
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    parts.push(escape(range(schema.minimum, schema.maximum)));
  if (typeof schema.exclusiveMinimum === "number") parts.push(escape(`above ${schema.exclusiveMinimum}`));
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    parts.push(escape(range(schema.minItems, schema.maxItems, " items")));
  if (schema.pattern) parts.push(`pattern <code>${escape(schema.pattern)}</code>`);
  if (schema.default !== undefined) parts.push(`default <code>${escape(JSON.stringify(schema.default))}</code>`);
  return parts.join("; ");
}

/** Every field of a schema as rows with dotted names (`cartItems[].optionId`), nested objects included. */
function fields(schema: Schema | undefined, document: OpenApiDocument, prefix = "", depth = 0): Field[] {
  const { schema: inner } = withoutNull(resolve(schema, document), document);
  if (depth > 4) return [];
  if (inner.type === "array") return fields(inner.items, document, `${prefix}[]`, depth + 1);
  if (!inner.properties) return [];
  return Object.entries(inner.properties).flatMap(([key, property]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    const own = { name, type: typeName(property, document), required: inner.required?.includes(key) ?? false };
    const row = { ...own, notes: notes(withoutNull(resolve(property, document), document).schema) };
    return [row, ...fields(property, document, name, depth + 1)];
  });
}

function fieldTable(rows: Field[], caption: string): string {
  if (rows.length === 0) return "";
  const body = rows
    .map(
      (row) =>
        `<tr><td><code>${escape(row.name)}</code>${row.required ? "" : " <small>optional</small>"}</td>` +
        `<td>${escape(row.type)}</td><td>${row.notes}</td></tr>`,
    )
    .join("");
  return `<table><caption>${escape(caption)}</caption><thead><tr><th>field</th><th>type</th><th>rules and meaning</th></tr></thead><tbody>${body}</tbody></table>`;
}

function operationHtml(method: string, path: string, operation: Operation, document: OpenApiDocument): string {
  const auth = operation.security?.length
    ? operation.security.some((requirement) => Object.keys(requirement).length === 0)
      ? "Bearer token optional"
      : "Bearer token required"
    : "No token needed";
  const parameters = (operation.parameters ?? []).map((parameter) => ({
    name: parameter.in === "path" ? `{${parameter.name}}` : parameter.name,
    type: `${typeName(parameter.schema ?? {}, document)} (${parameter.in})`,
    required: parameter.required ?? false,
    notes: notes({
      ...resolve(parameter.schema, document),
      description: parameter.description ?? parameter.schema?.description,
    }),
  }));
  const requestSchema = operation.requestBody?.content?.["application/json"]?.schema;
  const requestFields = fields(requestSchema, document);
  const responses = Object.entries(operation.responses ?? {}).map(([status, response]) => {
    const payload = resolve(response.content?.["application/json"]?.schema, document).properties?.payload;
    const payloadRows = status.startsWith("2") && payload ? fields(payload, document, "payload") : [];
    const payloadType = payload ? ` <small>payload: ${escape(typeName(payload, document))}</small>` : "";
    return `<li><strong>${escape(status)}</strong> ${prose(response.description)}${status.startsWith("2") ? payloadType : ""}${fieldTable(payloadRows, `${status} payload`)}</li>`;
  });
  return [
    `<section id="${escape(`${method}-${path}`)}">`,
    `<h3><span class="method">${escape(method.toUpperCase())}</span> <code>${escape(path)}</code></h3>`,
    `<p>${prose(operation.summary)} <small>(${auth})</small></p>`,
    operation.description ? `<p>${prose(operation.description)}</p>` : "",
    fieldTable(parameters, "parameters"),
    requestFields.length
      ? fieldTable(requestFields, "JSON body")
      : requestSchema
        ? `<p>Body: ${prose(operation.requestBody?.description)}</p>`
        : "",
    `<ul class="responses">${responses.join("")}</ul>`,
    "</section>",
  ].join("\n");
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a}
code{font-family:ui-monospace,monospace;font-size:.9em;background:#f3f3f3;padding:0 .2em;border-radius:3px}
section{border-top:1px solid #ddd;padding:.5rem 0}h3{font-size:1.05rem;margin:.5rem 0}
.method{display:inline-block;min-width:4.5em;font:700 .8rem ui-monospace,monospace;color:#fff;background:#35596b;padding:.1em .4em;border-radius:3px;text-align:center}
table{border-collapse:collapse;width:100%;margin:.5rem 0;font-size:.9rem}caption{text-align:left;font-weight:600}
th,td{border:1px solid #ddd;padding:.25rem .4rem;text-align:left;vertical-align:top}small{color:#555}
.responses{padding-left:1.2rem}`;

/** The Content-Security-Policy of the page: nothing but its own style element. */
export const REFERENCE_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function renderReferencePage(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags?.[0] ?? "Other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(operationHtml(method, path, operation, document));
    }
  }
  const slug = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const index = [...byTag.keys()].map((tag) => `<li><a href="#${slug(tag)}">${escape(tag)}</a></li>`).join("");
  const groups = [...byTag.entries()]
    .map(([tag, operations]) => `<h2 id="${slug(tag)}">${escape(tag)}</h2>\n${operations.join("\n")}`)
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(document.info.title)}</title><style>${STYLE}</style></head>
<body><h1>${escape(document.info.title)}</h1>
<p>${prose(document.info.description)}</p>
<p>Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI ${escape("3.1")}).</p>
<nav><ul>${index}</ul></nav>
${groups}
</body></html>`;
}
