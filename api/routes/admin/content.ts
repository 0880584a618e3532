import { createdOnce } from "../../idempotent-answer";
import { z } from "@hono/zod-openapi";
import {
  CONTENT_MESSAGES,
  GATEWAY_NAMES,
  LEGAL_DOCUMENT_NAMES,
  announcementSchema,
  documentSchema,
  faqSchema,
  gatewaySwitchSchema,
  moveSchema,
  socialLinkSchema,
} from "../../../contract/admin-content";
import {
  adminContentSchema,
  adminFaqSchema,
  adminGatewaySchema,
  adminGatewaysSchema,
  adminSocialLinkSchema,
  announcementSetSchema,
  documentSetSchema,
  rowDeletedSchema,
  rowMovedSchema,
  type RowMoved,
} from "../../../contract/answers/admin-content";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { answers, apiRouter, jsonBody, pathParams, ONCE_FAILURES, idempotencyKeyHeader } from "../../openapi";
import {
  addFaq,
  addSocialLink,
  deleteOrdered,
  editFaq,
  editSocialLink,
  listAdminGateways,
  moveOrdered,
  type OrderedKind,
  readAdminContent,
  setAnnouncement,
  setDocument,
  switchGateway,
} from "../../services/content/admin";
import { FAILURES, adminRoute, idOf } from "./admin-route";

/*
 * /v1/admin/content, /faqs, /social-links, /announcement, /documents (area `content`: owners and
 * managers) and /v1/admin/gateways (owners), ADR 031. Every change is audited.
 */

/** Names, not ids: each handler answers 404 for one it does not know. */
const namePath = (description: string) =>
  z.object({
    name: z
      .string()
      .max(40)
      .openapi({ param: { name: "name", in: "path" }, description }),
  });
const documentPath = namePath(LEGAL_DOCUMENT_NAMES.join(" or "));
const gatewayPath = namePath(GATEWAY_NAMES.join(", "));

const faqPath = { params: pathParams("faqId") };
const linkPath = { params: pathParams("linkId") };
const FAQ_FAILURES = { ...FAILURES, 404: "no question has this id" };
const LINK_FAILURES = { ...FAILURES, 404: "no social link has this id" };

/** An ordered list of the storefront: the FAQ or the footer's social links. */
type OrderedList<Id extends string> = {
  kind: OrderedKind;
  /** `/faqs/{faqId}` */
  path: `/${string}/{${Id}}`;
  idName: Id;
  /** "question", "social link" */
  noun: string;
  /** What the delete route's answer is described as. */
  deletedAnswer: string;
  notFound: string;
  failures: typeof FAQ_FAILURES;
  deleted: (label: string) => string;
};
const FAQ_LIST: OrderedList<"faqId"> = {
  kind: "faq",
  path: "/faqs/{faqId}",
  idName: "faqId",
  noun: "question",
  deletedAnswer: "the deleted question",
  notFound: CONTENT_MESSAGES.faqNotFound,
  failures: FAQ_FAILURES,
  deleted: (label) => `Question deleted: ${label}`,
};
const LINK_LIST: OrderedList<"linkId"> = {
  kind: "socialLink",
  path: "/social-links/{linkId}",
  idName: "linkId",
  noun: "social link",
  deletedAnswer: "the deleted link",
  notFound: CONTENT_MESSAGES.socialLinkNotFound,
  failures: LINK_FAILURES,
  deleted: (label) => `${label} deleted`,
};

const moved = (result: RowMoved, direction: string) =>
  result.moved
    ? `${result.label} moved ${direction}`
    : `${result.label} is already at the ${direction === "up" ? "top" : "bottom"}`;

/** Moving a row of an ordered list one place and deleting it read the same for every list. */
function orderedRowRoutes<Id extends string>(list: OrderedList<Id>) {
  const rowPath = { params: pathParams(list.idName) };
  const rowIdOf = (param: Record<Id, string>) => idOf(param[list.idName], list.notFound);
  return apiRouter()
    .openapi(
      adminRoute("content", {
        method: "post",
        path: `${list.path}/move`,
        summary: `Move a ${list.noun} one place up or down; audited`,
        request: { ...rowPath, body: jsonBody(moveSchema) },
        responses: answers(200, rowMovedSchema, "whether it moved", list.failures),
      }),
      async (c) => {
        const { direction } = c.req.valid("json");
        const result = await moveOrdered(
          c.get("db"),
          staffActor(c),
          list.kind,
          rowIdOf(c.req.valid("param")),
          direction,
        );
        return ok(c, result, moved(result, direction));
      },
    )
    .openapi(
      adminRoute("content", {
        method: "delete",
        path: list.path,
        summary: `Delete a ${list.noun}; audited`,
        request: rowPath,
        responses: answers(200, rowDeletedSchema, list.deletedAnswer, list.failures),
      }),
      async (c) => {
        const result = await deleteOrdered(c.get("db"), staffActor(c), list.kind, rowIdOf(c.req.valid("param")));
        return ok(c, result, list.deleted(result.label));
      },
    );
}

export const contentAdminRoutes = apiRouter()
  .openapi(
    adminRoute("content", {
      method: "get",
      path: "/content",
      summary: "The FAQ, the social links, the announcement and the legal documents, as staff edit them",
      responses: answers(200, adminContentSchema, "the content", FAILURES),
    }),
    async (c) => ok(c, await readAdminContent(c.get("db"))),
  )
  .openapi(
    adminRoute("content", {
      method: "post",
      path: "/faqs",
      summary: "Add a question at the end of the FAQ; audited",
      request: { headers: idempotencyKeyHeader, body: jsonBody(faqSchema) },
      responses: answers(201, adminFaqSchema, "the new question", { ...FAILURES, ...ONCE_FAILURES }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => ({
        payload: await addFaq(c.get("db"), staffActor(c), input),
        message: "Question added",
      }));
    },
  )
  .openapi(
    adminRoute("content", {
      method: "put",
      path: "/faqs/{faqId}",
      summary: "Edit a question and its answer; audited",
      request: { ...faqPath, body: jsonBody(faqSchema) },
      responses: answers(200, adminFaqSchema, "the question", FAQ_FAILURES),
    }),
    async (c) => {
      const faqId = idOf(c.req.valid("param").faqId, CONTENT_MESSAGES.faqNotFound);
      return ok(c, await editFaq(c.get("db"), staffActor(c), faqId, c.req.valid("json")), "Question saved");
    },
  )
  .route("/", orderedRowRoutes(FAQ_LIST))
  .openapi(
    adminRoute("content", {
      method: "post",
      path: "/social-links",
      summary: "Add a social link at the end of the footer's list; audited",
      request: { headers: idempotencyKeyHeader, body: jsonBody(socialLinkSchema) },
      responses: answers(201, adminSocialLinkSchema, "the new link", { ...FAILURES, ...ONCE_FAILURES }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const link = await addSocialLink(c.get("db"), staffActor(c), input);
        return { payload: link, message: `${link.name} added` };
      });
    },
  )
  .openapi(
    adminRoute("content", {
      method: "put",
      path: "/social-links/{linkId}",
      summary: "Edit a social link; audited",
      request: { ...linkPath, body: jsonBody(socialLinkSchema) },
      responses: answers(200, adminSocialLinkSchema, "the link", LINK_FAILURES),
    }),
    async (c) => {
      const linkId = idOf(c.req.valid("param").linkId, CONTENT_MESSAGES.socialLinkNotFound);
      const link = await editSocialLink(c.get("db"), staffActor(c), linkId, c.req.valid("json"));
      return ok(c, link, `${link.name} saved`);
    },
  )
  .route("/", orderedRowRoutes(LINK_LIST))
  .openapi(
    adminRoute("content", {
      method: "put",
      path: "/announcement",
      summary: "Publish the announcement, or take it down (empty text or active false); audited",
      request: { body: jsonBody(announcementSchema) },
      responses: answers(200, announcementSetSchema, "whether an announcement shows now", FAILURES),
    }),
    async (c) => {
      const result = await setAnnouncement(c.get("db"), staffActor(c), c.req.valid("json"));
      return ok(c, result, result.shown ? "Announcement published" : "Announcement taken down");
    },
  )
  .openapi(
    adminRoute("content", {
      method: "put",
      path: "/documents/{name}",
      summary: "Save a legal document (plain text; an empty text brings back the built-in one); audited",
      request: { params: documentPath, body: jsonBody(documentSchema) },
      responses: answers(200, documentSetSchema, "the document", {
        ...FAILURES,
        404: "no document has this name",
      }),
    }),
    async (c) => {
      const result = await setDocument(c.get("db"), staffActor(c), c.req.valid("param").name, c.req.valid("json").text);
      return ok(c, result, result.builtIn ? `${result.title}: the built-in text shows again` : `${result.title} saved`);
    },
  )
  .openapi(
    adminRoute("gateways", {
      method: "get",
      path: "/gateways",
      summary: "Every payment gateway: enabled, configured in the environment, offered at checkout",
      responses: answers(200, adminGatewaysSchema, "the gateways", FAILURES),
    }),
    async (c) => ok(c, await listAdminGateways(c.get("db"), c.get("config"))),
  )
  .openapi(
    adminRoute("gateways", {
      method: "put",
      path: "/gateways/{name}",
      summary: "Turn a gateway on or off for checkout (its keys stay in the environment); audited",
      request: { params: gatewayPath, body: jsonBody(gatewaySwitchSchema) },
      responses: answers(200, adminGatewaySchema, "the gateway", {
        ...FAILURES,
        404: "no gateway has this name",
        409: "it has no keys in this server's environment, so it cannot be turned on",
      }),
    }),
    async (c) => {
      const { enabled } = c.req.valid("json");
      const gateway = await switchGateway(
        c.get("db"),
        c.get("config"),
        staffActor(c),
        c.req.valid("param").name,
        enabled,
      );
      return ok(c, gateway, `${gateway.label} is ${enabled ? "on" : "off"} at checkout`);
    },
  );
