import { createdOnce } from "../../idempotent-answer";
import { z } from "@hono/zod-openapi";
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
import { staffActor } from "../../middleware/staff";
import { answers, apiRouter, jsonBody, pathParams, ONCE_FAILURES, idempotencyKeyHeader } from "../../openapi";
import {
  BLOCKLIST_MESSAGES,
  addBlocklistEntry,
  listBlocklist,
  removeBlocklistEntry,
} from "../../services/customers/admin-blocklist";
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
} from "../../services/customers/admin";
import { FAILURES, adminRoute, idOf, pageField, searchField } from "./admin-route";

/*
 * /v1/admin/customers and /v1/admin/blocklist (ADR 026): support reads (customersRead); balance
 * adjustments, blocks and blocklist changes are for managers and owners (customersWrite), audited.
 */

const pageQuery = z.object({ page: pageField });
const searchQuery = (description: string) =>
  z.object({
    page: pageField,
    search: searchField(description),
  });

const customerPath = { params: pathParams("customerId") };
const CUSTOMER_FAILURES = { ...FAILURES, 404: "no customer has this id" };

export const customerRoutes = apiRouter()
  .openapi(
    adminRoute("customersRead", {
      method: "get",
      path: "/customers",
      summary: `Accounts, newest first, ${CUSTOMERS_PAGE_SIZE} a page`,
      description: "`search` matches part of the email or username, or is the id of one of the account's orders.",
      request: { query: searchQuery("part of the email or username, or an order id") },
      responses: answers(200, customerPageSchema, "a page of accounts", FAILURES),
    }),
    async (c) => ok(c, await listCustomers(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("customersRead", {
      method: "get",
      path: "/customers/{customerId}",
      summary: "One account: profile, balance, counts and block",
      request: customerPath,
      responses: answers(200, customerSchema, "the account", CUSTOMER_FAILURES),
    }),
    async (c) =>
      ok(c, await readCustomer(c.get("db"), idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound))),
  )
  .openapi(
    adminRoute("customersRead", {
      method: "get",
      path: "/customers/{customerId}/orders",
      summary: `The account's orders, newest first, ${CUSTOMER_ORDERS_PAGE_SIZE} a page`,
      request: { ...customerPath, query: pageQuery },
      responses: answers(200, customerOrderPageSchema, "a page of orders", CUSTOMER_FAILURES),
    }),
    async (c) => {
      const customerId = idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound);
      return ok(c, await listOrdersOfCustomer(c.get("db"), customerId, c.req.valid("query").page));
    },
  )
  .openapi(
    adminRoute("customersRead", {
      method: "get",
      path: "/customers/{customerId}/tickets",
      summary: `The account's tickets, latest activity first, ${CUSTOMER_TICKETS_PAGE_SIZE} a page`,
      request: { ...customerPath, query: pageQuery },
      responses: answers(200, customerTicketPageSchema, "a page of tickets", CUSTOMER_FAILURES),
    }),
    async (c) => {
      const customerId = idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound);
      return ok(c, await listTicketsOfCustomer(c.get("db"), customerId, c.req.valid("query").page));
    },
  )
  .openapi(
    adminRoute("customersRead", {
      method: "get",
      path: "/customers/{customerId}/ledger",
      summary: `The account's balance ledger, newest first, ${CUSTOMER_LEDGER_PAGE_SIZE} a page`,
      description: "Unlike the customer's own sheet, each entry names the staff member who made it by hand.",
      request: { ...customerPath, query: pageQuery },
      responses: answers(200, staffLedgerPageSchema, "a page of ledger entries", CUSTOMER_FAILURES),
    }),
    async (c) => {
      const customerId = idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound);
      return ok(c, await listLedgerOfCustomer(c.get("db"), customerId, c.req.valid("query").page));
    },
  )
  .openapi(
    adminRoute("customersWrite", {
      method: "post",
      path: "/customers/{customerId}/balance",
      summary: "Credit or debit the balance with a reason; audited",
      description:
        "One ledger entry naming the staff member, the reason as its note: a credit is `adjustment`, a debit `out` " +
        "(the customer sees the reason and 'Admin'). A debit never takes the balance below zero. Nobody " +
        "adjusts their own balance.",
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
      const userId = idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound);
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
    adminRoute("customersWrite", {
      method: "post",
      path: "/customers/{customerId}/block",
      summary: "Block an account: every session revoked, sign-in refused; audited",
      description: "Only a role above the account's may block it: nobody blocks an owner, or themselves.",
      request: { ...customerPath, body: jsonBody(blockSchema) },
      responses: answers(200, customerSchema, "the blocked account", {
        ...CUSTOMER_FAILURES,
        403: "the role does not reach this area, or the account is the caller's own, an owner's, or of an equal role",
        409: "already blocked",
      }),
    }),
    async (c) => {
      const userId = idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound);
      const blocked = await blockCustomer(c.get("db"), staffActor(c), { userId, reason: c.req.valid("json").reason });
      return ok(c, blocked, `${blocked.email} is blocked and signed out everywhere`);
    },
  )
  .openapi(
    adminRoute("customersWrite", {
      method: "post",
      path: "/customers/{customerId}/unblock",
      summary: "Lift a block, with a reason; audited",
      request: { ...customerPath, body: jsonBody(blockSchema) },
      responses: answers(200, customerSchema, "the account", {
        ...CUSTOMER_FAILURES,
        403: "as for blocking",
        409: "not blocked",
      }),
    }),
    async (c) => {
      const userId = idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound);
      const account = await unblockCustomer(c.get("db"), staffActor(c), { userId, reason: c.req.valid("json").reason });
      return ok(c, account, `${account.email} can sign in again`);
    },
  )
  .openapi(
    adminRoute("customersRead", {
      method: "get",
      path: "/blocklist",
      summary: `Addresses and patterns refused at checkout, newest first, ${BLOCKLIST_PAGE_SIZE} a page`,
      request: { query: searchQuery("part of the pattern or of its note") },
      responses: answers(200, blocklistPageSchema, "a page of entries", FAILURES),
    }),
    async (c) => ok(c, await listBlocklist(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("customersWrite", {
      method: "post",
      path: "/blocklist",
      summary: "Refuse an address, or a pattern with `*`, at checkout; audited",
      description:
        "Compared without letter case. Checkout (guest and signed in), balance top-ups and redeem keys answer such an " +
        "address 403 and change nothing.",
      request: { headers: idempotencyKeyHeader, body: jsonBody(blocklistEntrySchema) },
      responses: answers(201, blocklistAddedSchema, "the new entry", {
        ...FAILURES,
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
    adminRoute("customersWrite", {
      method: "delete",
      path: "/blocklist/{entryId}",
      summary: "Remove an entry of the blocklist; audited",
      request: { params: pathParams("entryId") },
      responses: answers(200, blocklistRemovedSchema, "the removed entry", {
        ...FAILURES,
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
