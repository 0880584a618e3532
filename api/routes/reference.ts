import { type OpenAPIHono, type RouteConfig, createRoute, z } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { BEARER_AUTH, apiRouter } from "../openapi";
import { type OpenApiDocument, REFERENCE_PAGE_CSP, renderReferencePage } from "../reference-page";

const DESCRIPTION =
  "The store's JSON API. Every answer is the envelope `{ success, message, payload }`; a failure is " +
  "`{ success: false, message, errors? }` where `errors` maps each bad field (dotted path) to its messages. " +
  "Bodies are JSON (`content-type: application/json`). Money is USD with at most two decimals; ids are " +
  "22-character base64url strings. Rules and flows that a schema cannot say: docs/api.md, docs/api-accounts.md " +
  "and docs/api-orders.md in the repository.";

type DocumentSource = Pick<OpenAPIHono<ApiEnv>, "openAPIRegistry" | "getOpenAPI31Document">;
const documents = new WeakMap<DocumentSource, ReturnType<DocumentSource["getOpenAPI31Document"]>>();

/**
 * The generator writes a nullable enum (`z.literal("Admin").nullable()`) as `type: [string, null]` with an enum
 * that lacks null, which no null value passes (issue 38): every such enum names null as well.
 */
function allowNullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(allowNullInNullableEnums);
  if (typeof node !== "object" || node === null) return;
  const schema = node as { type?: unknown; enum?: unknown[] };
  if (Array.isArray(schema.type) && schema.type.includes("null") && schema.enum && !schema.enum.includes(null)) {
    schema.enum.push(null);
  }
  Object.values(node).forEach(allowNullInNullableEnums);
}

/**
 * The published OpenAPI document of the routes mounted on `v1`, built on first use (when every router is mounted)
 * and kept: the routes do not change while running. The API tests validate answers against this very document
 * (tests/support/contract.ts).
 */
export function publishedDocument(v1: DocumentSource) {
  let document = documents.get(v1);
  if (!document) {
    document = v1.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "Store API /v1", version: "1", description: DESCRIPTION },
    });
    allowNullInNullableEnums(document);
    documents.set(v1, document);
  }
  return document;
}

/** GET /v1/openapi.json and GET /v1/docs, generated from the routes mounted on `v1`. */
export function referenceRoutes(v1: DocumentSource) {
  v1.openAPIRegistry.registerComponent("securitySchemes", BEARER_AUTH, {
    type: "http",
    scheme: "bearer",
    description: "the token answered by sign-in, sign-up and password reset",
  });
  let page: string | undefined;
  const currentDocument = () => publishedDocument(v1);
  const documentAnswer: RouteConfig["responses"] = {
    200: { description: "the document", content: { "application/json": { schema: z.object({}).passthrough() } } },
  };

  return apiRouter()
    .openapi(
      createRoute({
        method: "get",
        path: "/openapi.json",
        tags: ["Reference"],
        summary: "This API as an OpenAPI 3.1 document",
        responses: documentAnswer,
      }),
      (c) => c.json(currentDocument(), 200),
    )
    .openapi(
      createRoute({
        method: "get",
        path: "/docs",
        tags: ["Reference"],
        summary: "This API as a readable page",
        responses: { 200: { description: "an HTML page", content: { "text/html": { schema: z.string() } } } },
      }),
      (c) => {
        // The generator's types are wider than the document it emits (paths, operations, schemas).
        page ??= renderReferencePage(currentDocument() as unknown as OpenApiDocument);
        c.header("content-security-policy", REFERENCE_PAGE_CSP);
        return c.html(page, 200);
      },
    );
}
