import { createdOnce } from "../../idempotent-answer";
import { createRoute, z } from "@hono/zod-openapi";
import {
  BLOCKLIST_PAGE_SIZE,
  CUSTOMERS_PAGE_SIZE,
  CUSTOMER_LEDGER_PAGE_SIZE,
  CUSTOMER_ORDERS_PAGE_SIZE,
  CUSTOMER_TICKETS_PAGE_SIZE,
  balanceAdjustmentSchema,
  blockSchema,
  blocklistEntrySchema,
} from "../../../contract/admin-customers";
import {
  adjustedBalanceSchema,
  blocklistAddedSchema,
  blocklistPageSchema,
  blocklistRemovedSchema,
  customerOrderPageSchema,
  customerPageSchema,
  customerSchema,
  customerTicketPageSchema,
  staffLedgerPageSchema,
} from "../../../contract/answers/admin-customers";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { usdToCents } from "../../../contract/money";
import { notFound } from "../../errors";
import { ok } from "../../http";
import { staffActor, staffRoute } from "../../middleware/staff";
import {
  BAD_INPUT,
  UNAUTHORIZED,
  answers,
  apiRouter,
  jsonBody,
  pathParams,
  ONCE_FAILURES,
  idempotencyKeyHeader,
} from "../../openapi";
import {
  BLOCKLIST_MESSAGES,
  addBlocklistEntry,
  listBlocklist,
  removeBlocklistEntry,
} from "../../services/admin-blocklist";
import {
  CUSTOMER_MESSAGES,
  adjustBalance,
  blockCustomer,
  listCustomers,
  listLedgerOfCustomer,
  listOrdersOfCustomer,
  listTicketsOfCustomer,
  readCustomer,
  unblockCustomer,
} from "../../services/admin-customers";
import { STAFF_ONLY } from "./staff";

/*
 * /v1/admin/customers and /v1/admin/blocklist (ADR 026): support reads (customersRead); balance
 * adjustments, blocks and blocklist changes are for managers and owners (customersWrite), audited.
 */

const ADMIN = ["Back office"];

const pageField = z.coerce
  .number()
  .int("Page must be a whole number")
  .min(1, "Page starts at 1")
  .max(100_000)
  .default(1)
  .openapi({ param: { name: "page", in: "query" } });
const pageQuery = z.object({ page: pageField });
const searchQuery = (description: string) =>
  z.object({
    page: pageField,
    search: z
      .string()
      .trim()
      .max(200, "Search is too long")
      .default("")
      .openapi({ param: { name: "search", in: "query" }, description }),
  });

/** A malformed id names no row: the same 404 as an unknown one. */
function customerIdOf(id: string): string {
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(CUSTOMER_MESSAGES.notFound);
  return id;
}

const customerPath = { params: pathParams("customerId") };
const READ_FAILURES = { ...BAD_INPUT, ...UNAUTHORIZED, ...STAFF_ONLY };
const CUSTOMER_FAILURES = { ...READ_FAILURES, 404: "no customer has this id" };

export const customerRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/customers",
      tags: ADMIN,
      summary: `Accounts, newest first, ${CUSTOMERS_PAGE_SIZE} a page`,
      description: "`search` matches part of the email or username, or is the id of one of the account's orders.",
      ...staffRoute("customersRead"),
      request: { query: searchQuery("part of the email or username, or an order id") },
      responses: answers(200, customerPageSchema, "a page of accounts", READ_FAILURES),
    }),
    async (c) => ok(c, await listCustomers(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/customers/{customerId}",
      tags: ADMIN,
      summary: "One account: profile, balance, counts and block",
      ...staffRoute("customersRead"),
      request: customerPath,
      responses: answers(200, customerSchema, "the account", CUSTOMER_FAILURES),
    }),
    async (c) => ok(c, await readCustomer(c.get("db"), customerIdOf(c.req.valid("param").customerId))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/customers/{customerId}/orders",
      tags: ADMIN,
      summary: `The account's orders, newest first, ${CUSTOMER_ORDERS_PAGE_SIZE} a page`,
      ...staffRoute("customersRead"),
      request: { ...customerPath, query: pageQuery },
      responses: answers(200, customerOrderPageSchema, "a page of orders", CUSTOMER_FAILURES),
    }),
    async (c) => {
      const customerId = customerIdOf(c.req.valid("param").customerId);
      return ok(c, await listOrdersOfCustomer(c.get("db"), customerId, c.req.valid("query").page));
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/customers/{customerId}/tickets",
      tags: ADMIN,
      summary: `The account's tickets, latest activity first, ${CUSTOMER_TICKETS_PAGE_SIZE} a page`,
      ...staffRoute("customersRead"),
      request: { ...customerPath, query: pageQuery },
      responses: answers(200, customerTicketPageSchema, "a page of tickets", CUSTOMER_FAILURES),
    }),
    async (c) => {
      const customerId = customerIdOf(c.req.valid("param").customerId);
      return ok(c, await listTicketsOfCustomer(c.get("db"), customerId, c.req.valid("query").page));
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/customers/{customerId}/ledger",
      tags: ADMIN,
      summary: `The account's balance ledger, newest first, ${CUSTOMER_LEDGER_PAGE_SIZE} a page`,
      description: "Unlike the customer's own sheet, each entry names the staff member who made it by hand.",
      ...staffRoute("customersRead"),
      request: { ...customerPath, query: pageQuery },
      responses: answers(200, staffLedgerPageSchema, "a page of ledger entries", CUSTOMER_FAILURES),
    }),
    async (c) => {
      const customerId = customerIdOf(c.req.valid("param").customerId);
      return ok(c, await listLedgerOfCustomer(c.get("db"), customerId, c.req.valid("query").page));
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/customers/{customerId}/balance",
      tags: ADMIN,
      summary: "Credit or debit the balance with a reason; audited",
      description:
        "One ledger entry naming the staff member, the reason as its note: a credit is `adjustment`, a debit `out` " +
        "(the customer sees the reason and 'Admin'). A debit never takes the balance below zero. Nobody " +
        "adjusts their own balance.",
      ...staffRoute("customersWrite"),
      request: { ...customerPath, headers: idempotencyKeyHeader, body: jsonBody(balanceAdjustmentSchema) },
      responses: answers(200, adjustedBalanceSchema, "the new balance", {
        ...CUSTOMER_FAILURES,
        ...ONCE_FAILURES,
        403: "the role does not reach this area, or the balance is the caller's own",
        409:
          "the debit is more than the balance (`errors.amount` says the balance), or the same Idempotency-Key " +
          "is still in progress",
      }),
    }),
    async (c) => {
      const userId = customerIdOf(c.req.valid("param").customerId);
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const adjusted = await adjustBalance(c.get("db"), staffActor(c), {
          userId,
          direction: input.direction,
          amountCents: usdToCents(input.amount),
          reason: input.reason,
        });
        return { payload: { balance: adjusted.balance }, message: adjusted.message, status: 200 };
      });
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/customers/{customerId}/block",
      tags: ADMIN,
      summary: "Block an account: every session revoked, sign-in refused; audited",
      description: "Only a role above the account's may block it: nobody blocks an owner, or themselves.",
      ...staffRoute("customersWrite"),
      request: { ...customerPath, body: jsonBody(blockSchema) },
      responses: answers(200, customerSchema, "the blocked account", {
        ...CUSTOMER_FAILURES,
        403: "the role does not reach this area, or the account is the caller's own, an owner's, or of an equal role",
        409: "already blocked",
      }),
    }),
    async (c) => {
      const userId = customerIdOf(c.req.valid("param").customerId);
      const blocked = await blockCustomer(c.get("db"), staffActor(c), { userId, reason: c.req.valid("json").reason });
      return ok(c, blocked, `${blocked.email} is blocked and signed out everywhere`);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/customers/{customerId}/unblock",
      tags: ADMIN,
      summary: "Lift a block, with a reason; audited",
      ...staffRoute("customersWrite"),
      request: { ...customerPath, body: jsonBody(blockSchema) },
      responses: answers(200, customerSchema, "the account", {
        ...CUSTOMER_FAILURES,
        403: "as for blocking",
        409: "not blocked",
      }),
    }),
    async (c) => {
      const userId = customerIdOf(c.req.valid("param").customerId);
      const account = await unblockCustomer(c.get("db"), staffActor(c), { userId, reason: c.req.valid("json").reason });
      return ok(c, account, `${account.email} can sign in again`);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/blocklist",
      tags: ADMIN,
      summary: `Addresses and patterns refused at checkout, newest first, ${BLOCKLIST_PAGE_SIZE} a page`,
      ...staffRoute("customersRead"),
      request: { query: searchQuery("part of the pattern or of its note") },
      responses: answers(200, blocklistPageSchema, "a page of entries", READ_FAILURES),
    }),
    async (c) => ok(c, await listBlocklist(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/blocklist",
      tags: ADMIN,
      summary: "Refuse an address, or a pattern with `*`, at checkout; audited",
      description:
        "Compared without letter case. Checkout (guest and signed in), balance top-ups and redeem keys answer such an " +
        "address 403 and change nothing.",
      ...staffRoute("customersWrite"),
      request: { headers: idempotencyKeyHeader, body: jsonBody(blocklistEntrySchema) },
      responses: answers(201, blocklistAddedSchema, "the new entry", {
        ...READ_FAILURES,
        ...ONCE_FAILURES,
        409: "already on the blocklist (`errors.pattern`), or the same Idempotency-Key is still in progress",
      }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const entry = await addBlocklistEntry(c.get("db"), staffActor(c), input);
        return { payload: entry, message: `${entry.pattern} is refused at checkout` };
      });
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/blocklist/{entryId}",
      tags: ADMIN,
      summary: "Remove an entry of the blocklist; audited",
      ...staffRoute("customersWrite"),
      request: { params: pathParams("entryId") },
      responses: answers(200, blocklistRemovedSchema, "the removed entry", {
        ...READ_FAILURES,
        404: "no such entry",
      }),
    }),
    async (c) => {
      const { entryId } = c.req.valid("param");
      if (!PUBLIC_ID_PATTERN.test(entryId)) throw notFound(BLOCKLIST_MESSAGES.notFound);
      const pattern = await removeBlocklistEntry(c.get("db"), staffActor(c), entryId);
      return ok(c, { pattern }, `${pattern} is no longer refused`);
    },
  );
